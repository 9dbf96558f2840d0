/**
 * How often the resolver's best candidate is the unit an address was written from, on addresses written from the
 * gazetteer's chains (random villages and communes, nine styles, Khmer and Latin; seeded, so every run writes the same):
 *   npm run eval:generated [-- --count 20000] [--out answers.tsv]
 * A regression check for rule changes, not a quality figure: real addresses are not written this cleanly (see
 * eval-address.ts and test/address/check-cases.json). `--out` writes one line per address (1 or 0, the unit, the best
 * candidate, the address), to compare two builds line by line (`paste a.tsv b.tsv`).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { random } from '../bench/address-inputs.js';
import { AddressResolver } from '../src/address/resolve.js';
import { loadGazetteer } from '../src/gazetteer/load.js';
import type { Unit } from '../src/gazetteer/types.js';
import { loadSearchIndex } from '../src/search/load.js';

const { values } = parseArgs({ options: { count: { type: 'string', default: '20000' }, out: { type: 'string' } } });
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1) throw new Error('--count must be a whole number of at least 1');

const gazetteer = loadGazetteer();
const resolver = new AddressResolver(gazetteer, loadSearchIndex(gazetteer).index);
const english = (u: Unit) => (u.level === 'province' ? 'Province' : u.unit_type_en);

/** Ways people write a chain (most specific first). */
const STYLES: [string, (chain: Unit[]) => string][] = [
  ['ភូមិ… ឃុំ… (spaces)', (c) => c.map((u) => `${u.unit_type_km}${u.name_km}`).join(' ')],
  ['ភូមិ…ឃុំ… (no spaces)', (c) => c.map((u) => `${u.unit_type_km}${u.name_km}`).join('')],
  ['Khmer names only', (c) => c.map((u) => u.name_km).join(' ')],
  ['X Village, Y Commune, ...', (c) => c.map((u) => `${u.name_latin} ${english(u)}`).join(', ')],
  ['Latin names, commas', (c) => c.map((u) => u.name_latin).join(', ')],
  ['Latin names, spaces', (c) => c.map((u) => u.name_latin).join(' ')],
  ['X Village Y Commune ... (no commas)', (c) => c.map((u) => `${u.name_latin} ${english(u)}`).join(' ')],
  ['ភូមិ… ឃុំ… ស្រុក… (no province)', (c) => c.slice(0, 3).map((u) => `${u.unit_type_km}${u.name_km}`).join(' ')],
  ['Phum X Khum Y Srok Z (no province)', (c) => c.slice(0, 3).map((u) => `${u.unit_type_latin} ${u.name_latin}`).join(' ')],
];

const rnd = random(7);
const units = gazetteer.units.filter((u) => u.level === 'village' || u.level === 'commune');
const hits = STYLES.map(() => 0);
const totals = STYLES.map(() => 0);
const lines: string[] = [];
for (let i = 0; i < count; i++) {
  const unit = units[Math.floor(rnd() * units.length)]!;
  const chain = [unit, ...gazetteer.ancestors(unit.code).reverse()];
  const style = Math.floor(rnd() * STYLES.length);
  const address = STYLES[style]![1](chain);
  const best = resolver.resolve(address, { limit: 1 }).candidates[0]?.unit.code ?? '';
  const hit = best === unit.code;
  totals[style]!++;
  if (hit) hits[style]!++;
  lines.push(`${hit ? 1 : 0}\t${unit.code}\t${best}\t${address}`);
}

const pct = (h: number, n: number) => `${((h / n) * 100).toFixed(2)}%`.padStart(8);
console.log(`${'style'.padEnd(40)} ${'cases'.padStart(6)} ${'best is the unit'.padStart(17)}`);
STYLES.forEach(([name], k) => console.log(`${name.padEnd(40)} ${String(totals[k]).padStart(6)} ${pct(hits[k]!, totals[k]!).padStart(17)}`));
const hit = hits.reduce((a, b) => a + b, 0);
console.log(`${'overall'.padEnd(40)} ${String(count).padStart(6)} ${pct(hit, count).padStart(17)}`);
if (values.out) writeFileSync(values.out, `${lines.join('\n')}\n`);
