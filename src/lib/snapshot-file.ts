/**
 * Reading and writing the build's snapshot files (the search index's tables, ../search/snapshot.ts; the address
 * resolver's, ../address/snapshot.ts): JSON beside the compiled code, which a start uses only when it can read it.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/** Writes `value` as JSON, aside then renamed: a server starting meanwhile reads the old file or the new one, never half of one. */
export function writeSnapshotFile(path: string, value: unknown): void {
  writeFileSync(`${path}.tmp`, JSON.stringify(value));
  renameSync(`${path}.tmp`, path);
}

/** The parsed file, or why it cannot be read (its contents are the caller's to check). */
export function readSnapshotFile<T>(path: string): { file: T } | { unusable: string } {
  try {
    return { file: JSON.parse(readFileSync(path, 'utf8')) as T };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { unusable: code === 'ENOENT' ? 'no snapshot (npm run build writes it)' : `unreadable: ${(error as Error).message}` };
  }
}
