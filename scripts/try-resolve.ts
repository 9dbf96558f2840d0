import { loadGazetteer } from '../src/gazetteer/load.js';
import { loadSearchIndex } from '../src/search/load.js';
import { AddressResolver } from '../src/address/resolve.js';
const g = loadGazetteer();
const r = new AddressResolver(g, loadSearchIndex(g).index);
const inputs = process.argv.slice(2);
for (const q of inputs) {
  const res = r.resolve(q);
  console.log('==', q, JSON.stringify(res.parts));
  for (const c of res.candidates.slice(0, 3)) {
    console.log(' ', c.unit.code, c.unit.level, c.unit.name_latin, c.unit.name_km, 'conf', c.confidence, 'score', c.score.toFixed(2),
      '| matched', c.matched.map((m) => `${m.text}->${m.code}/${m.how}`).join('; '), '| unmatched', JSON.stringify(c.unmatched), '| warn', c.warnings.map((w) => w.code).join(','));
  }
}
