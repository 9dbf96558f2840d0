/** Scores the resolver on a set of real addresses: hit@1 and hit@5 by category and script, and calibration bands. */
import type { AddressResolver } from './resolve.js';

export interface EvalCase {
  id: string;
  input: string;
  expected_code: string;
  category: string;
  script: string;
  source: unknown;
  note?: string;
}

export interface EvalGroup {
  name: string;
  cases: number;
  hit1: number;
  hit5: number;
}

export interface EvalReport {
  overall: EvalGroup;
  groups: EvalGroup[];
  misses: { id: string; category: string; input: string; expected: string; got: string[] }[];
  calibration: { band: string; cases: number; meanConfidence: number; hit1: number }[];
}

export function evaluate(resolver: AddressResolver, cases: readonly EvalCase[]): EvalReport {
  const tally = new Map<string, { cases: number; h1: number; h5: number }>();
  const add = (name: string, h1: boolean, h5: boolean) => {
    const t = tally.get(name) ?? { cases: 0, h1: 0, h5: 0 };
    t.cases++;
    if (h1) t.h1++;
    if (h5) t.h5++;
    tally.set(name, t);
  };
  const misses: EvalReport['misses'] = [];
  const bands = [0, 0.5, 0.7, 0.85, 0.95].map((low, i, all) => ({ low, high: all[i + 1] ?? 1.01, cases: 0, sum: 0, hits: 0 }));
  for (const c of cases) {
    let got: string[];
    let confidence = 0;
    try {
      const resolution = resolver.resolve(c.input);
      got = resolution.candidates.map((x) => x.unit.code);
      confidence = resolution.candidates[0]?.confidence ?? 0;
    } catch {
      // Input the resolver refuses (blank, too long) counts as a miss.
      got = [];
    }
    const h1 = got[0] === c.expected_code;
    const h5 = got.slice(0, 5).includes(c.expected_code);
    for (const name of ['overall', `category: ${c.category}`, `script: ${c.script}`]) add(name, h1, h5);
    if (!h1) misses.push({ id: c.id, category: c.category, input: c.input, expected: c.expected_code, got: got.slice(0, 5) });
    if (got.length > 0) {
      const band = bands.find((b) => confidence >= b.low && confidence < b.high)!;
      band.cases++;
      band.sum += confidence;
      if (h1) band.hits++;
    }
  }
  const groups = [...tally].map(([name, t]) => ({ name, cases: t.cases, hit1: t.h1 / t.cases, hit5: t.h5 / t.cases }))
    .sort((a, b) => (a.name === 'overall' ? -1 : b.name === 'overall' ? 1 : a.name < b.name ? -1 : 1));
  return {
    overall: groups.find((g) => g.name === 'overall') ?? { name: 'overall', cases: 0, hit1: 0, hit5: 0 },
    groups,
    misses,
    calibration: bands.map((b) => ({
      band: `${b.low.toFixed(2)}-${Math.min(1, b.high).toFixed(2)}`, cases: b.cases,
      meanConfidence: b.cases ? b.sum / b.cases : 0, hit1: b.cases ? b.hits / b.cases : 0,
    })),
  };
}
