/**
 * Serialized response bodies, memoized. Within a dataset version the data never changes, so each distinct response
 * is serialized once, by its route's own serializer (the response schema, through fast-json-stringify), and reused.
 * The identifier envelope's metadata.correlationId differs per request: that body is kept split around it.
 * Measured: serializing and presenting on every request made the province list 7% of Fastify's hello-world.
 */

/** The part of a Fastify reply the cache uses (typed loosely: a typed route's reply expects objects, we send strings). */
interface Reply {
  request: { id: string };
  serialize(payload: unknown): unknown;
  type(contentType: string): unknown;
  /** `never`: a typed route's send() takes its schema's object; a string body goes through a cast. */
  send(payload: never): unknown;
}

/** Placeholder serialized where the correlation id goes; control characters keep it out of any real data. */
const MARK = '\u0000correlation-id\u0000';
const MARK_IN_JSON = JSON.stringify(MARK).slice(1, -1);
const JSON_TYPE = 'application/json; charset=utf-8';

export class PayloadCache {
  private readonly bodies = new Map<string, string | readonly [string, string]>();
  private characters = 0;

  /**
   * `budget`: most characters of bodies kept (search answers with 100 results run to 30 KB); the oldest go first.
   * The default, 8 million, is at most 16 MB.
   */
  constructor(private readonly budget = 8_000_000) {}

  private remember(key: string, body: string | readonly [string, string]): void {
    this.bodies.set(key, body);
    this.characters += key.length + (typeof body === 'string' ? body.length : body[0].length + body[1].length);
    while (this.characters > this.budget && this.bodies.size > 1) {
      const [oldKey, old] = this.bodies.entries().next().value!;
      this.bodies.delete(oldKey);
      this.characters -= oldKey.length + (typeof old === 'string' ? old.length : old[0].length + old[1].length);
    }
  }

  /**
   * Sends the identifier-based 200 body `{ statusCode, data, metadata: { correlationId } }` for `key`; `data()` runs
   * only when the body is not cached. Request ids never need JSON escaping (see plugins/correlation.ts): they go in raw.
   */
  sendIdentifier(reply: Reply, key: string, data: () => unknown): void {
    let parts = this.bodies.get(key) as readonly [string, string] | undefined;
    if (!parts) {
      const body = reply.serialize({ statusCode: 200, data: data(), metadata: { correlationId: MARK } }) as string;
      const at = body.indexOf(MARK_IN_JSON);
      parts = [body.slice(0, at), body.slice(at + MARK_IN_JSON.length)];
      this.remember(key, parts);
    }
    reply.type(JSON_TYPE);
    reply.send((parts[0] + reply.request.id + parts[1]) as never);
  }

  /** Sends the whole 200 body for `key` (code-based shape: nothing in it differs per request). */
  sendWhole(reply: Reply, key: string, payload: () => unknown): void {
    let body = this.bodies.get(key) as string | undefined;
    if (body === undefined) {
      body = reply.serialize(payload()) as string;
      this.remember(key, body);
    }
    reply.type(JSON_TYPE);
    reply.send(body as never);
  }
}
