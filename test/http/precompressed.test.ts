/** Prepared files (src/http/precompressed.ts): the same content in every encoding; small files keep their bytes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { bodyOf, precompress } from '../../src/http/precompressed.js';

async function bytesOf(body: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('precompress', () => {
  const text = Array.from({ length: 2000 }, (_, i) => `{"code":"${i}","name":"ភូមិ ${i}"}\n`);

  it('keeps the bytes of a small file and sends them as they are, without inflating', async () => {
    const file = await precompress(text);
    const expected = Buffer.from(text.join(''));
    assert.ok(file.identity, 'a file under the threshold keeps its bytes');
    assert.equal(file.length, expected.length);
    const body = bodyOf(file, 'identity');
    assert.ok(Buffer.isBuffer(body), 'prepared bytes, not a stream');
    assert.deepEqual(body, expected);
    assert.deepEqual(zlib.gunzipSync(file.gzip), expected);
    assert.deepEqual(zlib.brotliDecompressSync(file.br), expected);
  });

  it('keeps only the compressed copies of a file over the threshold, and inflates gzip for identity', async () => {
    const file = await precompress(text, { keepIdentityUpTo: 1000 });
    const expected = Buffer.from(text.join(''));
    assert.equal(file.identity, undefined);
    const body = bodyOf(file, 'identity');
    assert.ok(!Buffer.isBuffer(body), 'a stream');
    assert.deepEqual(await bytesOf(body), expected);
    assert.deepEqual(bodyOf(file, 'gzip'), file.gzip);
    assert.deepEqual(bodyOf(file, 'br'), file.br);
  });

  it('names the same content by the same hash whether or not the bytes are kept', async () => {
    const [kept, notKept] = await Promise.all([precompress(text), precompress(text, { keepIdentityUpTo: 0 })]);
    assert.equal(kept.hash, notKept.hash);
    assert.match(kept.hash, /^[\w-]{22}$/);
  });
});

describe('precompress, when the text fails', () => {
  it('rejects with the error, and leaves nothing unhandled', async () => {
    const failing = function* () {
      yield 'x'.repeat(300_000);
      throw new Error('no more text');
    };
    let unhandled: unknown;
    const onUnhandled = (reason: unknown) => { unhandled = reason; };
    process.on('unhandledRejection', onUnhandled);
    try {
      await assert.rejects(precompress(failing()), /no more text/);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(unhandled, undefined);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
