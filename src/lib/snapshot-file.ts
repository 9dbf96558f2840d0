/**
 * Reading and writing the build's snapshot files (the search index's tables, ../search/snapshot.ts; the address
 * resolver's, ../address/snapshot.ts): JSON beside the compiled code, which a start uses only when it can read it.
 */
import { isAscii } from 'node:buffer';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * `value` as JSON in ASCII: every character past U+007F written as a \u escape (it can only be in a string). Such a
 * file is read as one byte a character and parsed as a one-byte string: for the search index's 6.5 MB, half Khmer,
 * 97-140 ms where the same JSON in UTF-8 took 146-276 (decoding, then parsing a two-byte string; 2026-11-27, a 2-core
 * EPYC VM). The file is 17% larger.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** JSON text from a file: read as Latin-1 when all of it is ASCII (the same text, decoded without UTF-8's work). */
export function readJsonText(path: string): string {
  const bytes = readFileSync(path);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * A typed array's bytes in base64, for a snapshot: where a JSON array of 100,000 numbers made as many values for the
 * parser and the collector (hashes past 2^31 each a heap number), base64 decodes straight into the array's memory.
 * In the machine's byte order: a snapshot is read where it was built.
 */
export function typedToBase64(array: Int32Array | Uint32Array): string {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
}

/** The array typedToBase64 wrote; throws if the text is not a whole number of 32-bit values. */
export function int32FromBase64(text: string): Int32Array {
  return new Int32Array(alignedBytes(text));
}

/** As int32FromBase64, unsigned. */
export function uint32FromBase64(text: string): Uint32Array {
  return new Uint32Array(alignedBytes(text));
}

function alignedBytes(text: unknown): ArrayBuffer {
  if (typeof text !== 'string') throw new Error('not base64 text');
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) throw new Error('not a whole number of 32-bit values');
  // A copy of its own (a Buffer may sit at any offset of a shared pool).
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
}

/** Writes `value` as JSON (asciiJson), aside then renamed: a server starting meanwhile reads the old file or the new one, never half of one. */
export function writeSnapshotFile(path: string, value: unknown): void {
  writeFileSync(`${path}.tmp`, asciiJson(value));
  renameSync(`${path}.tmp`, path);
}

/** The parsed file, or why it cannot be read (its contents are the caller's to check). */
export function readSnapshotFile<T>(path: string): { file: T } | { unusable: string } {
  try {
    return { file: JSON.parse(readJsonText(path)) as T };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { unusable: code === 'ENOENT' ? 'no snapshot (npm run build writes it)' : `unreadable: ${(error as Error).message}` };
  }
}
