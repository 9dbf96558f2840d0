/** A dashboard app on a throwaway SQLite store, and a cookie-keeping client for inject(). */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadGeography } from '../../src/geo/geography.js';
import { buildApp } from '../../src/http/app.js';
import { AccessControl } from '../../src/keys/access-control.js';
import type { KeyStore } from '../../src/keys/store.js';
import { UsageMeter } from '../../src/keys/usage-meter.js';
import { appOptions } from '../helper.js';
import { freshStore } from '../keys/stores.js';

export interface DashboardApp {
  app: FastifyInstance;
  store: KeyStore;
  access: AccessControl;
  close(): Promise<void>;
}

/** `geo`: with the boundaries too (reverse geocoding routes), for tests that cover every route. */
export async function dashboardApp(options: { trustProxy?: boolean; metricsToken?: string; store?: 'sqlite' | 'postgres'; operatorContact?: string; geo?: boolean;
  now?: () => number; } = {}): Promise<DashboardApp> {
  const { store, close } = await freshStore(options.store ?? 'sqlite');
  const meter = new UsageMeter(store, { flushIntervalMs: 60_000 });
  const access = new AccessControl(store, meter, { keyCacheTtlMs: 10_000 });
  const dashboard = { operatorContact: options.operatorContact ?? 'api@example.org', ...(options.now ? { now: options.now } : {}) };
  const app = await buildApp({ ...appOptions(), access, store, dashboard, trustProxy: options.trustProxy, metricsToken: options.metricsToken,
    ...(options.geo ? { geo: loadGeography() } : {}) });
  return { app, store, access, close: async () => { await app.close(); await meter.stop(); await close(); } };
}

/** A browser-like client: keeps cookies, reads the CSRF token from the last page. */
export class Client {
  private readonly cookies = new Map<string, string>();
  lastPage = '';
  constructor(private readonly app: FastifyInstance, private readonly headers: Record<string, string> = {}) {}

  private remember(response: LightMyRequestResponse): void {
    for (const c of response.cookies) {
      if (c.value === '' || (c.maxAge !== undefined && c.maxAge <= 0) || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  /** The cookies kept, as a Cookie header. */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({ method: 'GET', url, headers: { ...this.headers, ...headers, cookie: this.cookieHeader() } });
    this.remember(response);
    this.lastPage = response.body;
    return response;
  }

  /** The CSRF token of the last page's first form. */
  csrf(): string {
    return /name="_csrf" value="([^"]+)"/.exec(this.lastPage)?.[1] ?? '';
  }

  async post(url: string, fields: Record<string, string>, { csrf = true, headers = {} }: { csrf?: boolean; headers?: Record<string, string> } = {}): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams({ ...(csrf ? { _csrf: this.csrf() } : {}), ...fields }).toString();
    const response = await this.app.inject({
      method: 'POST', url, payload: body,
      headers: { ...this.headers, ...headers, cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
    });
    this.remember(response);
    if (response.headers['content-type']?.toString().startsWith('text/html')) this.lastPage = response.body;
    return response;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }
}

/**
 * Posts a create (or rotate) form and follows the redirect to the page that shows the new secret once: the secret,
 * the POST's response and the shown page.
 */
export async function issueKey(client: Client, url: string, fields: Record<string, string> = {}): Promise<{ key: string; post: LightMyRequestResponse; shown: LightMyRequestResponse }> {
  const post = await client.post(url, fields);
  if (post.statusCode !== 303) throw new Error(`${url}: ${post.statusCode} ${post.body.slice(0, 300)}`);
  const shown = await client.get(String(post.headers.location));
  const key = /id="new-key">(kh[kp]_\w+)</.exec(shown.body)?.[1];
  if (!key) throw new Error(`${url}: no key shown at ${post.headers.location}: ${shown.statusCode} ${shown.body.slice(0, 300)}`);
  return { key, post, shown };
}

/** Signs up a new developer and returns the client, signed in. */
export async function signedUp(app: FastifyInstance, email: string, password = 'correct horse battery'): Promise<Client> {
  const client = new Client(app);
  await client.get('/signup');
  const response = await client.post('/signup', { email, password });
  if (response.statusCode !== 303) throw new Error(`sign-up failed: ${response.statusCode} ${response.body.slice(0, 300)}`);
  return client;
}
