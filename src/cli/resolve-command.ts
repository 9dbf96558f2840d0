/**
 * `kh-address resolve`: resolves one column of a CSV file (or a JSON-lines file) offline, streaming: each record is
 * read, resolved and written before the next, so memory stays flat on any number of rows. Appends the unit's code,
 * level, chain (Latin and Khmer), postal code, confidence, a status and the warnings. Shows progress on a terminal
 * (standard error) and ends with a summary: resolved / ambiguous / unresolved.
 */
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { AddressInputError, type AddressResolver, type Candidate, resolverFor, SPANS_KEPT } from '../address/resolve.js';
import { loadGazetteer } from '../gazetteer/load.js';
import { csvRow } from '../lib/csv.js';
import { CsvStreamParser } from '../lib/csv-stream.js';
import { loadSearchIndex } from '../search/load.js';

export const RESOLVE_USAGE = `  kh-address resolve [FILE] [--column NAME|NUMBER] [--format csv|jsonl] [--no-header]
      Resolve the addresses in one column of a CSV file (or of JSON lines) read from FILE or standard input, and write
      each record with kh_code, kh_level, kh_chain, kh_chain_km, kh_postal_code, kh_confidence, kh_status
      (resolved|ambiguous|unresolved) and kh_warnings appended, to standard output. --column: the column's name (default
      "address", else the first column) or its number from 1; for JSON lines, the key (default "address"; a line may
      also be a JSON string). A summary goes to standard error.`;

export class ResolveUsageError extends Error {}

type Status = 'resolved' | 'ambiguous' | 'unresolved';
const OUTPUT_COLUMNS = ['kh_code', 'kh_level', 'kh_chain', 'kh_chain_km', 'kh_postal_code', 'kh_confidence', 'kh_status', 'kh_warnings'];

interface Outcome {
  code: string;
  level: string;
  chain: string;
  chain_km: string;
  postal_code: string;
  confidence: number | null;
  status: Status;
  warnings: string;
}

/** Memo entries of the resolver (see AddressResolver.spansKept): a file's addresses share their names. */
const BULK_SPANS_KEPT = 10 * SPANS_KEPT;

/**
 * Registers repeat addresses: the last results are kept (bounded), so a repeat costs a map lookup. Two generations of
 * CACHE_SIZE each: when the young one is full it becomes the old one and the previous old one is dropped, so an
 * insert costs no eviction of its own; a result found in the old generation moves to the young one.
 */
const CACHE_SIZE = 10_000;

function cached(resolve: (address: string) => Outcome): (address: string) => Outcome {
  let young = new Map<string, Outcome>();
  let old = new Map<string, Outcome>();
  return (address) => {
    let found = young.get(address);
    if (found !== undefined) return found;
    found = old.get(address) ?? resolve(address);
    if (young.size >= CACHE_SIZE) {
      old = young;
      young = new Map();
    }
    young.set(address, found);
    return found;
  };
}

function outcome(resolver: AddressResolver, address: string): Outcome {
  let best: Candidate | undefined;
  try {
    best = resolver.resolve(address, { limit: 1 }).candidates[0];
  } catch (error) {
    if (!(error instanceof AddressInputError)) throw error;
  }
  if (!best) return { code: '', level: '', chain: '', chain_km: '', postal_code: '', confidence: null, status: 'unresolved', warnings: '' };
  const units = [best.chain.province, best.chain.district, best.chain.commune, best.chain.village].filter((u) => u !== null);
  const warnings = best.warnings.map((w) => w.code);
  return {
    code: best.unit.code,
    level: best.unit.level,
    chain: units.map((u) => u.name_latin).join(' > '),
    chain_km: units.map((u) => u.name_km).join(' > '),
    postal_code: best.unit.postal_code,
    confidence: best.confidence,
    status: warnings.includes('AMBIGUOUS') ? 'ambiguous' : 'resolved',
    warnings: warnings.join(' '),
  };
}

class Progress {
  private readonly started = performance.now();
  private readonly cpuAtStart = process.cpuUsage();
  private lastShown = 0;
  rows = 0;
  readonly counts: Record<Status, number> = { resolved: 0, ambiguous: 0, unresolved: 0 };
  constructor(private readonly err: Writable & { isTTY?: boolean }) {}

  count(status: Status): void {
    this.rows++;
    this.counts[status]++;
    if (this.err.isTTY && (this.rows & 1023) === 0) {
      const now = performance.now();
      if (now - this.lastShown > 250) {
        this.lastShown = now;
        this.err.write(`\r${this.rows.toLocaleString('en')} rows, ${this.rate().toLocaleString('en')}/s `);
      }
    }
  }

  private rate(): number {
    return Math.round(this.rows / Math.max(0.001, (performance.now() - this.started) / 1000));
  }

  summary(): string {
    const { resolved, ambiguous, unresolved } = this.counts;
    const seconds = (performance.now() - this.started) / 1000;
    const cpu = process.cpuUsage(this.cpuAtStart);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    return `${this.err.isTTY ? '\r' : ''}kh-address resolve: ${this.rows} rows: ${resolved} resolved, ${ambiguous} ambiguous, `
      + `${unresolved} unresolved (${seconds.toFixed(2)} s, ${this.rate()} rows/s; ${cpuSeconds.toFixed(2)} s of CPU)\n`;
  }
}

export async function resolveCommand(args: string[], out: Writable, err: Writable, input: Readable): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: { column: { type: 'string' }, format: { type: 'string' }, 'no-header': { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  const format = values.format ?? 'csv';
  if (format !== 'csv' && format !== 'jsonl') throw new ResolveUsageError('--format must be csv or jsonl');
  if (positionals.length > 1) throw new ResolveUsageError('give at most one FILE');
  const file = positionals[0];
  const source = file && file !== '-' ? createReadStream(file) : input;
  const gazetteer = loadGazetteer();
  const resolver = resolverFor(gazetteer, loadSearchIndex(gazetteer).index);
  resolver.spansKept = BULK_SPANS_KEPT;
  const resolve = cached((address) => outcome(resolver, address));
  const progress = new Progress(err);
  // Output is gathered and written in pieces of about 64 KB; a record is handled without awaiting unless one is due.
  let pending = '';
  const flush = async () => {
    if (pending && !out.write(pending)) await once(out, 'drain');
    pending = '';
  };
  const due = () => pending.length > 64 * 1024;
  source.setEncoding('utf8');

  if (format === 'csv') {
    const parser = new CsvStreamParser();
    let column = -1;
    let width = 0;
    const hasHeader = !values['no-header'];
    const handle = (record: string[]) => {
      if (column < 0) {
        if (hasHeader) {
          column = pickColumn(record, values.column);
          width = record.length;
          pending += csvRow([...record, ...OUTPUT_COLUMNS]);
          return;
        }
        column = pickColumn(null, values.column);
      }
      const o = resolve(record[column] ?? '');
      progress.count(o.status);
      const padded = record.length < width ? [...record, ...Array<string>(width - record.length).fill('')] : record;
      pending += csvRow([...padded, o.code, o.level, o.chain, o.chain_km, o.postal_code, o.confidence, o.status, o.warnings]);
    };
    for await (const chunk of source) {
      for (const record of parser.push(chunk as string)) {
        handle(record);
        if (due()) await flush();
      }
    }
    for (const record of parser.end()) handle(record);
  } else {
    const key = values.column ?? 'address';
    const handle = (line: string) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new ResolveUsageError(`line ${progress.rows + 1} is not JSON`);
      }
      const record = typeof value === 'string' ? { [key]: value } : value;
      if (record === null || typeof record !== 'object' || Array.isArray(record)) throw new ResolveUsageError(`line ${progress.rows + 1} is not a JSON object or string`);
      const address = (record as Record<string, unknown>)[key];
      const o = resolve(typeof address === 'string' ? address : '');
      progress.count(o.status);
      pending += `${JSON.stringify({ ...record, kh: o })}\n`;
    };
    let carry = '';
    for await (const chunk of source) {
      const lines = (carry + (chunk as string)).split('\n');
      carry = lines.pop()!;
      if (carry.length > 1_000_000) throw new ResolveUsageError('a line is longer than 1,000,000 characters');
      for (const line of lines) {
        handle(line);
        if (due()) await flush();
      }
    }
    handle(carry);
  }
  await flush();
  err.write(progress.summary());
}

function pickColumn(header: string[] | null, wanted: string | undefined): number {
  if (wanted !== undefined && /^\d+$/.test(wanted)) {
    const n = Number(wanted);
    if (n < 1 || (header && n > header.length)) throw new ResolveUsageError(`--column ${wanted}: the file has ${header?.length ?? '?'} columns`);
    return n - 1;
  }
  if (!header) {
    if (wanted !== undefined) throw new ResolveUsageError('--column must be a number with --no-header');
    return 0;
  }
  const name = wanted ?? 'address';
  const found = header.findIndex((h) => h.trim().toLowerCase() === name.toLowerCase());
  if (found >= 0) return found;
  if (wanted !== undefined) throw new ResolveUsageError(`no column named ${JSON.stringify(wanted)} (columns: ${header.join(', ')})`);
  return 0;
}
