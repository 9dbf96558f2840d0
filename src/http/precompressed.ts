/**
 * Files prepared once and served precompressed: the text is built in slices (the event loop is yielded between
 * them), hashed and compressed with gzip and brotli as it goes, off the main thread (zlib's thread pool). The two
 * compressed copies are kept, and the bytes themselves too when the file is small (up to 1 MiB: e.g. the provinces,
 * districts and communes as JSON or CSV, the picker's script), so that a client that accepts neither is sent prepared
 * bytes; for a larger file it gets the gzip copy inflated as a stream (measured: inflating the 9 KB provinces file on
 * every request cost 195 µs of CPU per request against 43 µs for a server sending the same bytes).
 * Used by the dataset downloads and the picker's script.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import zlib from 'node:zlib';

export type Encoding = 'br' | 'gzip' | 'identity';

export interface Precompressed {
  /** Bytes of the file itself. */
  length: number;
  /** The file itself, uncompressed, when it is small enough to keep (`keepIdentityUpTo`). */
  identity?: Buffer;
  gzip: Buffer;
  br: Buffer;
  /** A hash of the content (base64url, 22 characters): the strong ETag's core. */
  hash: string;
}

/**
 * Builds and compresses a file from its text chunks. The text goes, a slice of `sliceBytes` at a time, into the hash
 * and into a gzip and a brotli stream (zlib's thread pool), and the event loop is yielded between slices, so that no
 * request waits behind the build; the whole text is never held, unless it is kept (at most `keepIdentityUpTo` bytes).
 * Measured on the 8.8 MB all-levels JSON: built whole, then compressed in one go, it held 41 MB outside the JS heap at
 * the peak; streamed, 14 MB. Brotli quality: 11 took 30 s for the 6.7 MB JSON dataset, 9 about 2 s for a file 5%
 * larger (measured); but quality 9 takes about 45 MB of native memory while it runs (10: 78 MB), quality 6 about 17 MB
 * for a file about 5% larger again: 6, so that preparing a download keeps the server under its memory budget (the
 * full benchmark's peak RSS was 259 MB with 9, against a target of 250). Brotli's window: 1 MiB (lgwin 20) instead
 * of its default 4 MiB: preparing the all-levels JSON then peaked at 176-179 MB of server RSS instead of 189-192, and
 * left it at 169 instead of 176-179 (two alternated starts each); the file is 0.9% larger (on data/gazetteer.json:
 * 0.865 MB against 0.857) and compresses faster (117 ms of CPU against 160).
 */
export async function precompress(chunks: Iterable<string>,
  { sliceBytes = 256 * 1024, brotliQuality = 6, keepIdentityUpTo = 1024 * 1024 } = {}): Promise<Precompressed> {
  const hash = createHash('sha256');
  const gzipStream = zlib.createGzip({ level: 9 });
  const brotliStream = zlib.createBrotliCompress({
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality, [zlib.constants.BROTLI_PARAM_LGWIN]: 20 },
  });
  const gzipped = collect(gzipStream);
  const brotlied = collect(brotliStream);
  // Awaited below; if the text fails first, the streams are destroyed and these reject with nobody waiting yet.
  for (const output of [gzipped, brotlied]) output.catch(() => undefined);
  let kept: Buffer[] | null = [];
  let length = 0;
  let pending: string[] = [];
  let pendingLength = 0;
  const flush = async () => {
    const buffer = Buffer.from(pending.join(''));
    pending = [];
    pendingLength = 0;
    hash.update(buffer);
    length += buffer.length;
    if (kept && length <= keepIdentityUpTo) kept.push(buffer);
    else kept = null;
    const drained = [gzipStream, brotliStream].map((stream) => (stream.write(buffer) ? null : once(stream, 'drain')));
    await Promise.all(drained);
  };
  try {
    for (const chunk of chunks) {
      pending.push(chunk);
      pendingLength += chunk.length;
      if (pendingLength >= sliceBytes) {
        await flush();
        await yieldToLoop();
      }
    }
    await flush();
  } catch (error) {
    gzipStream.destroy();
    brotliStream.destroy();
    throw error;
  }
  gzipStream.end();
  brotliStream.end();
  const [gz, br] = await Promise.all([gzipped, brotlied]);
  return { length, ...(kept ? { identity: Buffer.concat(kept) } : {}), gzip: gz, br, hash: hash.digest('base64url').slice(0, 22) };
}

/** All the output of a compression stream, as one buffer, once it ends. */
async function collect(stream: zlib.Gzip | zlib.BrotliCompress): Promise<Buffer> {
  const parts: Buffer[] = [];
  stream.on('data', (part: Buffer) => parts.push(part));
  await finished(stream);
  return Buffer.concat(parts);
}

/**
 * The best encoding the client accepts (RFC 9110 Accept-Encoding with q-values): brotli, then gzip, else identity.
 * Only the first 1,000 characters of the header are read.
 */
export function chooseEncoding(acceptEncoding: string | string[] | undefined): Encoding {
  if (typeof acceptEncoding !== 'string') return 'identity';
  const q = new Map<string, number>();
  for (const item of acceptEncoding.slice(0, 1000).split(',')) {
    const [name = '', ...params] = item.split(';');
    const weight = params.map((p) => /^\s*q=([0-9.]{1,5})\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    q.set(name.trim().toLowerCase(), weight === undefined ? 1 : Number(weight));
  }
  const accepts = (name: string) => (q.get(name) ?? (name !== 'identity' ? q.get('*') : undefined) ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip') || accepts('x-gzip')) return 'gzip';
  return 'identity';
}

/** The strong ETag of one encoding of the file. */
export function etagOf(file: Precompressed, encoding: Encoding): string {
  return `"${file.hash}${encoding === 'identity' ? '' : `-${encoding}`}"`;
}

/** Whether If-None-Match names this file in any encoding (the content is the same; only the transfer differs). */
export function matchesFile(ifNoneMatch: string | undefined, file: Precompressed): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.slice(0, 2000).split(',').some((tag) => {
    const opaque = tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '').replace(/-(gzip|br)$/, '');
    return opaque === file.hash;
  });
}

/** The body to send for an encoding: a copy kept, or (a large file, uncompressed) the gzip copy inflated on the fly. */
export function bodyOf(file: Precompressed, encoding: Encoding): Buffer | Readable {
  if (encoding === 'br') return file.br;
  if (encoding === 'gzip') return file.gzip;
  if (file.identity) return file.identity;
  return Readable.from([file.gzip]).pipe(zlib.createGunzip());
}

/** Prepares each key's file once: concurrent first requests share the same work; a failure is forgotten. */
export class PreparedFiles<K extends string> {
  private readonly files = new Map<K, Promise<Precompressed>>();
  constructor(private readonly make: (key: K) => Iterable<string>) {}

  get(key: K): Promise<Precompressed> {
    let file = this.files.get(key);
    if (!file) {
      file = precompress(this.make(key));
      file.catch(() => this.files.delete(key));
      this.files.set(key, file);
    }
    return file;
  }
}
