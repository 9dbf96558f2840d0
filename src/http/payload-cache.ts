/**
 * How every 200 data response is sent: HTTP caching (ETag, Cache-Control, 304; see ./caching.ts), then the body,
 * memoized. Within a dataset version the data never changes, so each distinct response is serialized once, by its
 * route's own serializer (the response schema, through fast-json-stringify), and reused. The identifier envelope's
 * metadata.correlationId differs per request: that body is kept split around it, with whole copies that each request's
 * id is written into (IdentifierBody).
 * Bodies are kept as UTF-8 bytes, so a request costs no encoding: measured, sending the province list as a string
 * cost 2 µs more per request than as bytes, and 4 µs more in Khmer; serializing and presenting on every request made
 * it 7% of Fastify's hello-world.
 */
import { CACHE_CONTROL, matchesEtag } from './caching.js';

/** The part of a Fastify reply the cache uses (typed loosely: a typed route's reply expects objects, we send bytes). */
interface Reply {
  request: { id: string; headers: { 'if-none-match'?: string | undefined } };
  /** Node's ServerResponse: whether all its data has been handed to the system (a kept body's copy is then free). */
  raw: { readonly writableFinished: boolean };
  serialize(payload: unknown): unknown;
  type(contentType: string): unknown;
  header(name: string, value: string): unknown;
  code(statusCode: number): unknown;
  /** `never`: a typed route's send() takes its schema's object; a body of bytes goes through a cast. */
  send(payload: never): unknown;
}

/** Placeholder serialized where the correlation id goes; control characters keep it out of any real data. */
const MARK = '\u0000correlation-id\u0000';
const MARK_IN_JSON = JSON.stringify(MARK).slice(1, -1);
const JSON_TYPE = 'application/json; charset=utf-8';

/** The UTF-8 bytes of `text` in a buffer of their own (not a slice of Node's shared pool, which it would keep alive). */
function utf8(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/**
 * Bytes of each slab that identifier bodies are cut from, and the largest body cut from one (larger ones get a buffer
 * of their own). Node's Buffer.allocUnsafe() cuts buffers of up to 4 KiB from its own 8 KiB pool; a larger one is a
 * new ArrayBuffer, whose memory is allocated, accounted for outside the heap and freed by the garbage collector: the
 * province list (about 4.5 KB in English) paid that on every request. A body holds its slab until it is written: a
 * client that reads slowly keeps at most one 32 KiB slab alive per response in flight, as Node's pool does with 8 KiB.
 */
const SLAB_BYTES = 32 * 1024;
const MAX_SLAB_BODY = 8 * 1024;
let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
let slabUsed = 0;

/** A buffer of `size` bytes for one response body (uninitialised: the caller writes every byte). */
function bodyBuffer(size: number): Buffer {
  if (size > MAX_SLAB_BODY) return Buffer.allocUnsafeSlow(size);
  if (slabUsed + size > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  const body = slab.subarray(slabUsed, slabUsed + size);
  // Aligned to 8 bytes, as Node aligns its pool's buffers.
  slabUsed = (slabUsed + size + 7) & ~7;
  return body;
}

/**
 * The cache keys of one route's answers by unit code, each made once and then reused: a key built on every request
 * (`v1|children|12`) is a new string that the lookup must flatten, hash and compare character by character (about
 * 800 instructions a request, measured with callgrind), where a kept one has its hash and is found by identity. Only
 * codes of units that exist are keyed, so the memo holds at most one string per unit.
 */
export function unitKeys(prefix: string, suffix = ''): (code: string) => string {
  const keys = new Map<string, string>();
  return (code) => {
    let key = keys.get(code);
    if (key === undefined) keys.set(code, (key = `${prefix}${code}${suffix}`));
    return key;
  };
}

/** unitKeys() for each response language. */
export function unitKeysByLang(prefix: string): (code: string, lang: 'en' | 'km') => string {
  const en = unitKeys(prefix, '|en');
  const km = unitKeys(prefix, '|km');
  return (code, lang) => (lang === 'km' ? km(code) : en(code));
}

/**
 * Which answers are kept. `always`: a key from a bounded set (a unit's code, a language, a page). `repeated`: a key made
 * of free text (a search, an address), kept only when asked for a second time (see PayloadCache.seenBefore).
 */
export type Keep = 'always' | 'repeated';

/** Slots of the table of keys seen once (a power of two; 32 KB). */
const SEEN_SLOTS = 8192;

/** A 32-bit hash of `text` (FNV-1a over its UTF-16 code units), never 0 (0 marks an empty slot). */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h === 0 ? 1 : h;
}

/** Whole copies of a kept identifier body that one key may have (see IdentifierBody). */
const MAX_COPIES = 32;

/** Kept bodies that one call of PayloadCache#release looks at. */
const RELEASE_STEP = 4000;

/** Stands for a response already written, in place of the response itself. */
const WRITTEN: Reply['raw'] = { writableFinished: true };

/**
 * A kept identifier body: its bytes before and after the correlation id, and whole copies of it, each lent to one
 * response at a time. Once that response is written (`writableFinished`: Node has handed all of it to the system; a
 * pipelined response queued behind another, or one a slow client has not read, is not), the copy takes the next
 * request's id in place and is sent again: no new memory, no copy of the body, no new object per request. Measured
 * (2026-11-26, GET /provinces, 100 connections, pipelining 10, CPU per request from schedstat, 6 paired rounds):
 * a body made per request cost 7% more CPU than one constant body, of which the copy into new memory, its Buffer and
 * the garbage collector's work on them (perf: memmove, malloc, concurrent marking and sweeping) were the visible part.
 * A copy remembers its last response only until that response is written: PayloadCache#release, run every second,
 * lets go of the written ones (a few thousand kept bodies a time), so that a key nobody asks for again does not keep
 * a response (and its request) alive.
 */
class IdentifierBody {
  readonly copies: Buffer[] = [];
  /** The response each copy was last lent to. */
  readonly writers: Reply['raw'][] = [];
  /** The copy to try first: the one lent longest ago. */
  next = 0;
  /** Bytes held: the two halves and every copy. */
  bytes: number;

  constructor(readonly head: Buffer, readonly tail: Buffer) {
    this.bytes = head.length + tail.length;
  }
}

/** Writes the body head + id + tail into `body` (exactly that long). Ids are ASCII (see plugins/correlation.ts). */
function fillBody(body: Buffer, head: Buffer, id: string, tail: Buffer): Buffer {
  body.set(head, 0);
  writeId(body, head.length, id);
  body.set(tail, head.length + id.length);
  return body;
}

/**
 * The id's bytes one by one: an id is at most 128 ASCII characters, fewer than a call into C++ (Buffer#write) costs;
 * the halves go with TypedArray#set, without Buffer#copy's checks.
 */
function writeId(body: Buffer, at: number, id: string): void {
  for (let i = 0; i < id.length; i++, at++) body[at] = id.charCodeAt(i);
}

export class PayloadCache {
  private readonly bodies = new Map<string, Buffer | IdentifierBody>();
  private bytes = 0;
  /** Hashes of free-text keys asked for once, each in the slot its low bits name (a newer key takes the slot). */
  private readonly seen = new Int32Array(SEEN_SLOTS);

  /**
   * `etag`: the ETag of every data response (./caching.ts). `budget`: most bytes of bodies kept (a search answer
   * with 100 results runs to 30 KB; most are a few KB); the oldest go first.
   */
  constructor(private readonly etag: string, private readonly budget = 4_000_000) {}

  /** Sets ETag and Cache-Control; answers 304 (no body) and returns true when the client's copy is current. */
  private notModified(reply: Reply): boolean {
    reply.header('etag', this.etag);
    reply.header('cache-control', CACHE_CONTROL);
    const ifNoneMatch = reply.request.headers['if-none-match'];
    if (ifNoneMatch === undefined || !matchesEtag(ifNoneMatch, this.etag)) return false;
    reply.code(304);
    reply.send(undefined as never);
    return true;
  }

  /**
   * Whether a free-text key was asked for before (recently: a slot holds the last of the keys that share it), and
   * marks it as asked for. Keeping every answer to free text cost dearly when most are asked for once (an address
   * resolved by a new customer, a search typed letter by letter): each body kept a while then pushed out of the
   * budget by the next ones made garbage that lived long enough to reach the old generation. `GET /v1/resolve` with a
   * new address on every request: a mark-compact every 0.4-0.7 s (13 ms of main thread each, plus incremental steps of
   * up to 20 ms), and 316 µs of CPU a request against 263 when nothing was kept (`--trace-gc`, 2026-11-24). A hash
   * that collides only makes an answer kept at its first request.
   */
  private seenBefore(key: string): boolean {
    const h = hash32(key);
    const slot = h & (SEEN_SLOTS - 1);
    if (this.seen[slot] === h) return true;
    this.seen[slot] = h;
    return false;
  }

  /** Whether to keep a newly made answer for `key` (see Keep). */
  private admits(key: string | null, keep: Keep): key is string {
    return key !== null && (keep === 'always' || this.seenBefore(key));
  }

  private remember(key: string, body: Buffer | IdentifierBody): void {
    this.bodies.set(key, body);
    this.grew(key.length + (Buffer.isBuffer(body) ? body.length : body.bytes));
  }

  /** Where release() goes on from: the kept bodies not yet looked at in this round. */
  private releasing: Iterator<Buffer | IdentifierBody> | undefined;

  /**
   * Lets go of the responses that kept identifier bodies' copies were lent to and that have been written (see
   * IdentifierBody), for up to RELEASE_STEP kept bodies, going on from where the last call stopped (a Map's iterator
   * sees entries added meanwhile, and skips deleted ones). The app runs it every second: a cache full of small bodies
   * (23,000 of them in the 4 MB budget) is gone through in six seconds, a few tenths of a millisecond each time.
   */
  release(): void {
    this.releasing ??= this.bodies.values();
    for (let n = 0; n < RELEASE_STEP; n++) {
      const step = this.releasing.next();
      if (step.done) {
        this.releasing = undefined;
        return;
      }
      const kept = step.value;
      if (Buffer.isBuffer(kept)) continue;
      const { writers } = kept;
      for (let i = 0; i < writers.length; i++) if (writers[i] !== WRITTEN && writers[i]!.writableFinished) writers[i] = WRITTEN;
    }
  }

  /** Counts `bytes` more kept, and forgets the oldest bodies while over budget. */
  private grew(bytes: number): void {
    this.bytes += bytes;
    while (this.bytes > this.budget && this.bodies.size > 1) {
      const [oldKey, old] = this.bodies.entries().next().value!;
      this.bodies.delete(oldKey);
      this.bytes -= oldKey.length + (Buffer.isBuffer(old) ? old.length : old.bytes);
    }
  }

  /**
   * Sends the identifier-based 200 body `{ statusCode, data, metadata: { correlationId } }` for `key`; `data()` runs
   * only when the body is not cached. Request ids are ASCII and never need JSON escaping (see plugins/correlation.ts):
   * their bytes go in as they are. `key` null: an answer not worth keeping, serialized for this request only; `keep`:
   * see Keep.
   */
  sendIdentifier(reply: Reply, key: string | null, data: () => unknown, keep: Keep = 'always'): void {
    if (this.notModified(reply)) return;
    let kept = key === null ? undefined : this.bodies.get(key) as IdentifierBody | undefined;
    if (!kept) {
      const text = reply.serialize({ statusCode: 200, data: data(), metadata: { correlationId: MARK } }) as string;
      const at = text.indexOf(MARK_IN_JSON);
      const head = utf8(text.slice(0, at));
      const tail = utf8(text.slice(at + MARK_IN_JSON.length));
      if (!this.admits(key, keep)) {
        // Not kept: this request's body, cut from a slab.
        const id = reply.request.id;
        reply.type(JSON_TYPE);
        reply.send(fillBody(bodyBuffer(head.length + id.length + tail.length), head, id, tail) as never);
        return;
      }
      this.remember(key, (kept = new IdentifierBody(head, tail)));
    }
    reply.type(JSON_TYPE);
    reply.send(this.copyFor(kept, reply) as never);
  }

  /**
   * A copy of the kept body with this request's id in it, lent to its response (see IdentifierBody). The copies form a
   * ring in the order they were lent, `next` the one lent longest ago: it is lent again if its response has been
   * written, made anew in its place if it was made for an id of another length, and if it is still being written, a
   * new copy goes into the ring just before it (up to MAX_COPIES; past that the new copy takes its place, and the busy
   * one stays alive until written, then is garbage).
   */
  private copyFor(kept: IdentifierBody, reply: Reply): Buffer {
    const { copies, writers, head, tail } = kept;
    const id = reply.request.id;
    const size = head.length + id.length + tail.length;
    const at = kept.next;
    const oldest = copies[at];
    if (oldest !== undefined && writers[at]!.writableFinished && oldest.length === size) {
      writeId(oldest, head.length, id);
      writers[at] = reply.raw;
      kept.next = at + 1 === copies.length ? 0 : at + 1;
      return oldest;
    }
    const body = fillBody(Buffer.allocUnsafeSlow(size), head, id, tail);
    let grown = size;
    if (oldest === undefined || (copies.length >= MAX_COPIES || writers[at]!.writableFinished)) {
      // In its place: the ring was empty, is full, or the oldest was written but for an id of another length.
      if (oldest !== undefined) grown -= oldest.length;
      copies[at] = body;
      writers[at] = reply.raw;
      kept.next = at + 1 === copies.length ? 0 : at + 1;
    } else {
      // Just before the oldest, which stays next.
      copies.splice(at, 0, body);
      writers.splice(at, 0, reply.raw);
      kept.next = at + 1;
    }
    kept.bytes += grown;
    this.grew(grown);
    return body;
  }

  /**
   * Sends the whole 200 body for `key` (code-based shape: nothing in it differs per request). `key` null: an answer
   * not worth keeping, serialized for this request only; `keep`: see Keep.
   */
  sendWhole(reply: Reply, key: string | null, payload: () => unknown, keep: Keep = 'always'): void {
    if (this.notModified(reply)) return;
    let body = key === null ? undefined : this.bodies.get(key) as Buffer | undefined;
    if (body === undefined) {
      body = utf8(reply.serialize(payload()) as string);
      if (this.admits(key, keep)) this.remember(key, body);
    }
    reply.type(JSON_TYPE);
    reply.send(body as never);
  }
}
