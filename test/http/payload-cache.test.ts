/** The payload cache on a real Fastify app: bodies built once, kept as UTF-8 bytes, caching headers and 304. */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type AddressInfo, connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, describe, it } from 'node:test';
import Fastify from 'fastify';
import { CACHE_CONTROL } from '../../src/http/caching.js';
import { PayloadCache } from '../../src/http/payload-cache.js';
import { correlationId } from '../../src/http/plugins/correlation.js';

const ETAG = 'W/"test-etag"';

async function appWith(payloads: PayloadCache) {
  const built = new Map<string, number>();
  const build = <T>(key: string, value: T) => () => {
    built.set(key, (built.get(key) ?? 0) + 1);
    return value;
  };
  const app = Fastify({ genReqId: correlationId });
  app.get('/identifier/:name', (request, reply) => {
    const { name } = request.params as { name: string };
    payloads.sendIdentifier(reply, `identifier|${name}`, build(`identifier|${name}`, { name, khmer: 'ភ្នំពេញ' }));
  });
  app.get('/whole/:name', (request, reply) => {
    const { name } = request.params as { name: string };
    payloads.sendWhole(reply, `whole|${name}`, build(`whole|${name}`, { status: 'success', data: [name] }));
  });
  app.get('/free/:text', (request, reply) => {
    const { text } = request.params as { text: string };
    payloads.sendWhole(reply, `free|${text}`, build(`free|${text}`, { status: 'success', data: [text] }), 'repeated');
  });
  app.get('/free-identifier/:text', (request, reply) => {
    const { text } = request.params as { text: string };
    payloads.sendIdentifier(reply, `free-identifier|${text}`, build(`free-identifier|${text}`, { text }), 'repeated');
  });
  await app.ready();
  return { app, built };
}

describe('payload cache', async () => {
  const { app, built } = await appWith(new PayloadCache(ETAG));
  after(() => app.close());

  it('builds an identifier body once and puts each request\'s correlation id in it', async () => {
    const first = await app.inject({ url: '/identifier/a', headers: { 'x-correlation-id': 'first-id' } });
    const second = await app.inject({ url: '/identifier/a', headers: { 'x-correlation-id': 'second-id' } });
    assert.deepEqual(first.json(), { statusCode: 200, data: { name: 'a', khmer: 'ភ្នំពេញ' }, metadata: { correlationId: 'first-id' } });
    assert.equal(second.json().metadata.correlationId, 'second-id');
    assert.equal(built.get('identifier|a'), 1);
  });

  it('sends UTF-8 JSON with the right length, Khmer included', async () => {
    const response = await app.inject('/identifier/b');
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(Number(response.headers['content-length']), response.rawPayload.length);
    assert.equal(response.json().data.khmer, 'ភ្នំពេញ');
  });

  it('sends a whole body as it was built, once', async () => {
    for (let i = 0; i < 3; i++) assert.deepEqual((await app.inject('/whole/x')).json(), { status: 'success', data: ['x'] });
    assert.equal(built.get('whole|x'), 1);
  });

  it('sets ETag and Cache-Control, and answers a matching If-None-Match with 304 and no body, built or not', async () => {
    const fresh = await app.inject('/whole/y');
    assert.equal(fresh.headers.etag, ETAG);
    assert.equal(fresh.headers['cache-control'], CACHE_CONTROL);
    for (const url of ['/whole/y', '/identifier/never-built']) {
      const revalidated = await app.inject({ url, headers: { 'if-none-match': ETAG } });
      assert.equal(revalidated.statusCode, 304, url);
      assert.equal(revalidated.body, '', url);
      assert.equal(revalidated.headers.etag, ETAG, url);
    }
    assert.equal(built.get('identifier|never-built'), undefined, 'a 304 needs no body');
    assert.equal((await app.inject({ url: '/whole/y', headers: { 'if-none-match': 'W/"other"' } })).statusCode, 200);
  });
});

describe('payload cache: answers to free text', async () => {
  const { app, built } = await appWith(new PayloadCache(ETAG));
  after(() => app.close());

  it('keeps an answer only from its second request on (a key asked for once is not kept)', async () => {
    for (const url of ['/free/a', '/free-identifier/a']) {
      const name = url.slice(1).replace('/', '|');
      const bodies: string[] = [];
      for (let i = 0; i < 4; i++) bodies.push((await app.inject({ url, headers: { 'x-correlation-id': 'same-id' } })).body);
      assert.equal(built.get(name), 2, `${url}: built at the first and second requests, then sent as kept`);
      assert.equal(new Set(bodies).size, 1, `${url}: the same body each time`);
    }
  });

  it('still answers every request in full, and revalidates with 304', async () => {
    for (let i = 0; i < 50; i++) assert.deepEqual((await app.inject(`/free/once-${i}`)).json(), { status: 'success', data: [`once-${i}`] });
    assert.equal(built.get('free|once-0'), 1);
    const revalidated = await app.inject({ url: '/free/once-0', headers: { 'if-none-match': ETAG } });
    assert.equal(revalidated.statusCode, 304);
    assert.equal(built.get('free|once-0'), 1, 'a 304 builds nothing');
  });
});

describe('payload cache budget', async () => {
  // Room for about two of these bodies: the oldest goes first.
  const { app, built } = await appWith(new PayloadCache(ETAG, 100));
  after(() => app.close());

  it('forgets the oldest bodies beyond its budget, and builds them again when asked', async () => {
    for (const name of ['one', 'two', 'three']) await app.inject(`/whole/${name}`);
    await app.inject('/whole/three');
    assert.equal(built.get('whole|three'), 1, 'the newest is kept');
    await app.inject('/whole/one');
    assert.equal(built.get('whole|one'), 2, 'the oldest was forgotten');
  });
});

describe('payload cache: identifier bodies of every size', async () => {
  const payloads = new PayloadCache(ETAG);
  const app = Fastify({ genReqId: correlationId });
  // The very buffers handed to Fastify, kept until every request is done: one cut from a shared slab must never be
  // written over by a later body.
  const sent: { id: string; payload: Buffer }[] = [];
  app.addHook('onSend', async (request, _reply, payload) => {
    sent.push({ id: request.id, payload: payload as Buffer });
    return payload;
  });
  app.get('/sized/:bytes', (request, reply) => {
    const { bytes } = request.params as { bytes: string };
    payloads.sendIdentifier(reply, `sized|${bytes}`, () => ({ text: 'ក'.repeat(Number(bytes) / 3) }));
  });
  await app.ready();
  after(() => app.close());

  it('sends each request its own body, small, over 4 KiB and over 8 KiB, none overwritten by the next', async () => {
    const sizes = [300, 4_500, 6_000, 9_000, 30_000];
    for (let i = 0; i < 60; i++) {
      const bytes = sizes[i % sizes.length]!;
      const response = await app.inject({ url: `/sized/${bytes}`, headers: { 'x-correlation-id': `request-${i}` } });
      assert.equal(response.json().metadata.correlationId, `request-${i}`);
      assert.equal(response.json().data.text.length, bytes / 3);
    }
    assert.equal(sent.length, 60);
    for (const [i, { id, payload }] of sent.entries()) {
      const body = JSON.parse(payload.toString('utf8'));
      assert.equal(id, `request-${i}`);
      assert.equal(body.metadata.correlationId, id, `body ${i} still holds its own id`);
      assert.equal(body.data.text.length, sizes[i % sizes.length]! / 3);
    }
  });
});

describe('payload cache: identifier bodies on real sockets', async () => {
  const payloads = new PayloadCache(ETAG);
  const app = Fastify({ genReqId: correlationId });
  // The buffer objects handed to Fastify for each key: a kept body's copies are lent again once written.
  const sentBuffers = new Map<string, Set<Buffer>>();
  app.addHook('onSend', async (request, _reply, payload) => {
    const { bytes } = request.params as { bytes: string };
    if (!sentBuffers.has(bytes)) sentBuffers.set(bytes, new Set());
    sentBuffers.get(bytes)!.add(payload as Buffer);
    return payload;
  });
  app.get('/sized/:bytes', (request, reply) => {
    const { bytes } = request.params as { bytes: string };
    payloads.sendIdentifier(reply, `sized|${bytes}`, () => ({ text: 'ក'.repeat(Number(bytes) / 3) }));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  after(() => app.close());
  const { port } = app.server.address() as AddressInfo;
  const get = async (bytes: number, id: string) => {
    const response = await fetch(`http://127.0.0.1:${port}/sized/${bytes}`, { headers: { 'x-correlation-id': id } });
    return (await response.json()) as { metadata: { correlationId: string }; data: { text: string } };
  };

  it('sends one request after another the same copy of a kept body, with each one\'s id', async () => {
    for (let i = 0; i < 20; i++) {
      const body = await get(1_200, `one-after-another-${i}`);
      assert.equal(body.metadata.correlationId, `one-after-another-${i}`);
      assert.equal(body.data.text, 'ក'.repeat(400));
      if (i === 10) payloads.release();
    }
    // The first request builds the body; its copy is written before the next request comes, and lent again.
    assert.ok(sentBuffers.get('1200')!.size <= 2, `${sentBuffers.get('1200')!.size} copies for 20 requests one after another`);
  });

  it('never lends a copy still being written: a client that does not read keeps its answers intact', async () => {
    // 600 pipelined requests on a socket nobody reads: the answers back up in the kernel and in Node's queue,
    // unwritten, while 600 more for the same keys are answered to a client that reads. A copy lent again too early
    // would show as another request's id in the slow client's answers.
    const count = 600;
    const sizes = [4_500, 6_000, 300, 3_000];
    const slow = connect({ port, host: '127.0.0.1' });
    await once(slow, 'connect');
    slow.pause();
    let requests = '';
    for (let i = 0; i < count; i++) {
      requests += `GET /sized/${sizes[i % sizes.length]} HTTP/1.1\r\nHost: t\r\nX-Correlation-Id: slow-${i}\r\n\r\n`;
    }
    slow.write(requests);
    for (let i = 0; i < count; i++) {
      const body = await get(sizes[(i + 1) % sizes.length]!, `fast-${i}`);
      assert.equal(body.metadata.correlationId, `fast-${i}`);
    }
    const received: Buffer[] = [];
    const bodies = await new Promise<string[]>((resolve, reject) => {
      slow.on('data', (chunk: Buffer) => {
        received.push(chunk);
        const all = Buffer.concat(received);
        const parsed: string[] = [];
        for (let at = 0; at < all.length;) {
          const headEnd = all.indexOf('\r\n\r\n', at);
          if (headEnd < 0) break;
          const length = Number(/content-length: (\d+)/i.exec(all.subarray(at, headEnd).toString('latin1'))?.[1]);
          if (headEnd + 4 + length > all.length) break;
          parsed.push(all.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8'));
          at = headEnd + 4 + length;
        }
        if (parsed.length === count) resolve(parsed);
      });
      slow.on('error', reject);
      slow.resume();
    });
    slow.destroy();
    for (const [i, text] of bodies.entries()) {
      const body = JSON.parse(text) as { metadata: { correlationId: string }; data: { text: string } };
      assert.equal(body.metadata.correlationId, `slow-${i}`, `answer ${i} of the slow client`);
      assert.equal(body.data.text, 'ក'.repeat(sizes[i % sizes.length]! / 3), `answer ${i}'s data`);
    }
  });
});

describe('payload cache: a kept body does not keep its last response alive', async () => {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  const payloads = new PayloadCache(ETAG);
  const app = Fastify({ genReqId: correlationId });
  let response: WeakRef<object> | undefined;
  app.get('/kept', (request, reply) => {
    response = new WeakRef(reply.raw);
    payloads.sendIdentifier(reply, 'kept', () => ({ text: 'ក'.repeat(100) }));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  after(() => app.close());
  const { port } = app.server.address() as AddressInfo;

  it('lets go of a written response at release()', async () => {
    const body = await (await fetch(`http://127.0.0.1:${port}/kept`, { headers: { connection: 'close' } })).json() as { metadata: { correlationId: string } };
    assert.ok(body.metadata.correlationId.length > 0);
    const released = async () => {
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        collect();
      }
      return response!.deref() === undefined;
    };
    assert.equal(await released(), false, 'before release() the copy still names its response (else this test shows nothing)');
    payloads.release();
    assert.equal(await released(), true, 'after release() nothing keeps the written response');
  });
});
