/**
 * @kh-address/client: a typed client for the kh-address API. One method per operation of the OpenAPI document
 * (named by its operationId, both response shapes), types generated from that document by openapi-typescript, a
 * thin runtime over `fetch` (Node 20+ and browsers, no dependencies). Errors are KhAddressError with the API's
 * `code`; 429 and 503 are retried after their Retry-After.
 *
 *   const kh = new KhAddressClient({ baseUrl: 'https://kh-address.example.org' });   // key from KH_ADDRESS_KEY
 *   const { data } = await kh.v1ListDistricts({ path: { province_code: '12' } });
 */
import type { operations } from './openapi.js';
import { OPERATIONS } from './operations.js';

export type { operations, paths } from './openapi.js';
export { OPERATIONS } from './operations.js';

export type OperationId = keyof typeof OPERATIONS & keyof operations;

type Parameters<Op> = Op extends { parameters: infer P } ? P : never;
type Defined<T> = [NonNullable<T>] extends [never] ? undefined : NonNullable<T>;
type PathOf<Op> = Parameters<Op> extends { path: infer P } ? Defined<P> : undefined;
type QueryOf<Op> = Parameters<Op> extends { query?: infer Q } ? Defined<Q> : undefined;
type BodyOf<Op> = Op extends { requestBody?: infer R }
  ? Defined<R> extends { content: { 'application/json': infer B } } ? B : undefined
  : undefined;

/** What a call takes: `path` when the route has path parameters, `query` and `body` when it has them. */
export type Args<Op> = (PathOf<Op> extends undefined ? { path?: undefined } : { path: PathOf<Op> })
  & (QueryOf<Op> extends undefined ? { query?: undefined } : { query?: QueryOf<Op> })
  & (BodyOf<Op> extends undefined ? { body?: undefined } : { body: BodyOf<Op> });

/** The 200 body of an operation: JSON as typed by the document; text for a file (e.g. a CSV download). */
export type Result<Op> = Op extends { responses: { 200: { content: infer C } } }
  ? C extends { 'application/json': infer J } ? J : string
  : unknown;

type HasRequired<Op> = PathOf<Op> extends undefined ? (BodyOf<Op> extends undefined ? false : true) : true;

/** Per call: an AbortSignal and extra headers (e.g. If-None-Match, Accept-Encoding). */
export interface CallOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export type Methods = {
  [Id in OperationId]: HasRequired<operations[Id]> extends true
    ? (args: Args<operations[Id]>, options?: CallOptions) => Promise<Result<operations[Id]>>
    : (args?: Args<operations[Id]>, options?: CallOptions) => Promise<Result<operations[Id]>>;
};

/** Every error code the API documents (and `network_error` for a request that got no answer). */
export type ErrorCode = NonNullable<ErrorBodyOf<operations['v1ListProvinces']>>['code'] | 'network_error' | 'http_error';
type ErrorBodyOf<Op> = Op extends { responses: { 400: { content: { 'application/json': { error: infer E } } } } } ? E : never;

export class KhAddressError extends Error {
  override readonly name = 'KhAddressError';
  constructor(
    /** The HTTP status; 0 when there was no answer. */
    readonly status: number,
    /** The API's stable error code: branch on this, never on the message. */
    readonly code: ErrorCode,
    message: string,
    /** For invalid_request: each parameter at fault. */
    readonly details: { in: string; parameter: string; message: string }[] | undefined,
    /** The x-correlation-id of the response: quote it when reporting a problem. */
    readonly correlationId: string | undefined,
    /** Retry-After in seconds, when the answer had one (429, 503). */
    readonly retryAfter: number | undefined,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  /** The API's origin. Default: KH_ADDRESS_URL in Node, else the page's origin in a browser, else http://127.0.0.1:3000. */
  baseUrl?: string;
  /** The API key (a secret key on a server, a browser key in a page). Default: KH_ADDRESS_KEY in Node. */
  apiKey?: string;
  /** How many times a 429 or 503 is retried (after its Retry-After). Default 2. */
  retries?: number;
  /** A Retry-After longer than this (ms) is not waited for: the error is thrown (a used-up monthly quota). Default 30000. */
  maxRetryDelayMs?: number;
  /** Another fetch (e.g. with a proxy agent); default globalThis.fetch. */
  fetch?: typeof fetch;
}

function env(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  return value === '' ? undefined : value;
}

/** Retry-After as seconds: a number of seconds or an HTTP date. */
function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => {
    clearTimeout(timer);
    reject(signal.reason);
  }, { once: true });
});

// The methods are made from OPERATIONS in the constructor; this interface gives them their types.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface KhAddressClient extends Methods {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class KhAddressClient {
  readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly retries: number;
  private readonly maxRetryDelayMs: number;
  private readonly fetcher: typeof fetch;

  constructor(options: ClientOptions = {}) {
    const pageOrigin = (globalThis as { location?: { origin?: string } }).location?.origin;
    this.baseUrl = (options.baseUrl ?? env('KH_ADDRESS_URL') ?? (pageOrigin && pageOrigin !== 'null' ? pageOrigin : 'http://127.0.0.1:3000')).replace(/\/+$/, '');
    this.apiKey = options.apiKey ?? env('KH_ADDRESS_KEY');
    this.retries = options.retries ?? 2;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
    for (const id of Object.keys(OPERATIONS) as OperationId[]) {
      Object.defineProperty(this, id, {
        value: (args?: { path?: object; query?: object; body?: unknown }, options?: CallOptions) => this.call(id, args, options),
        enumerable: false,
      });
    }
  }

  /** The URL of an operation with its path and query parameters. */
  url(id: OperationId, args: { path?: object; query?: object } = {}): string {
    const { path } = OPERATIONS[id];
    const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = (args.path as Record<string, unknown> | undefined)?.[name];
      if (value === undefined || value === null || value === '') throw new TypeError(`${id}: path parameter ${name} is required`);
      // The slug path of /locations/{path} keeps its slashes.
      return name === 'path' ? String(value).split('/').map(encodeURIComponent).join('/') : encodeURIComponent(String(value));
    });
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(args.query ?? {})) {
      if (value !== undefined && value !== null) query.set(name, String(value));
    }
    const search = query.toString();
    return `${this.baseUrl}${filled}${search ? `?${search}` : ''}`;
  }

  /** Calls an operation by its operationId (what each method does). */
  async call(id: OperationId, args: { path?: object; query?: object; body?: unknown } = {}, options: CallOptions = {}): Promise<unknown> {
    const { method } = OPERATIONS[id];
    const url = this.url(id, args);
    const headers: Record<string, string> = { accept: 'application/json, */*;q=0.5', ...options.headers };
    if (this.apiKey) headers['x-api-key'] = this.apiKey;
    let body: string | undefined;
    if (args.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(args.body);
    }
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetcher(url, { method, headers, body, signal: options.signal });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        throw new KhAddressError(0, 'network_error', `No answer from ${this.baseUrl}: ${(error as Error).message}`, undefined, undefined, undefined);
      }
      const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
      if ((response.status === 429 || response.status === 503) && attempt < this.retries
        && retryAfter !== undefined && retryAfter * 1000 <= this.maxRetryDelayMs) {
        await response.body?.cancel();
        await sleep(retryAfter * 1000, options.signal);
        continue;
      }
      const type = response.headers.get('content-type') ?? '';
      const isJson = /^application\/(.+\+)?json/.test(type);
      if (response.ok) return isJson ? response.json() : response.status === 304 ? undefined : response.text();
      const payload = isJson ? await response.json().catch(() => undefined) as { error?: { code?: string; message?: string; details?: [] } } | undefined : undefined;
      throw new KhAddressError(
        response.status,
        (payload?.error?.code ?? 'http_error') as ErrorCode,
        payload?.error?.message ?? `HTTP ${response.status} from ${method} ${url}`,
        payload?.error?.details,
        response.headers.get('x-correlation-id') ?? undefined,
        retryAfter,
      );
    }
  }
}
