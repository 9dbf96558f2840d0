import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { buildDataset, buildHistoryFile } from '../../scripts/build-data.js';
import { classifyNote, formerParentStated, nameBeforeReclassified, parseNoteDate, readHistorySources, validateHistory } from '../../scripts/data/history.js';
import { Gazetteer } from '../../src/gazetteer/gazetteer.js';
import { formerNameKey } from '../../src/gazetteer/history.js';
import { HISTORY_PATH } from '../../src/gazetteer/load.js';
import { gazetteer } from '../helper.js';

describe('unit history (data/history.json)', async () => {
  const g = gazetteer();
  const built = buildDataset();
  const history = await buildHistoryFile(built);

  it('is what the sources build (npm run build:data -- --check)', () => {
    assert.equal(readFileSync(HISTORY_PATH, 'utf8'), history.json, 'data/history.json is stale: run npm run build:data');
  });

  it('has the counts of pumi\'s history: 81 commune recodes, 51+14 creations, 20+1 retirements', () => {
    const count = (level: string, event: string) =>
      history.history.events.filter((e) => e.level === level && e.event === event && e.sources.some((s) => s.source === 'pumi-history')).length;
    assert.equal(count('commune', 'recoded'), 81);
    assert.equal(count('commune', 'created'), 51);
    assert.equal(count('commune', 'retired'), 20);
    assert.equal(count('district', 'created'), 14);
    assert.equal(count('district', 'retired'), 1);
  });

  it('gives every retired code at least one successor that exists today', () => {
    assert.ok(history.history.retired.length > 80);
    for (const r of history.history.retired) {
      assert.equal(g.byCode(r.code), undefined, r.code);
      assert.ok(r.successors.length > 0, `${r.code} has no successor`);
      for (const s of r.successors) assert.ok(g.byCode(s), `${r.code} -> ${s}`);
      assert.ok(r.reason.length > 0, r.code);
    }
  });

  it('fails the build when a retired code loses its successor, or an event goes missing', async () => {
    const sources = await readHistorySources();
    const broken = structuredClone(history.history);
    broken.retired[0]!.successors = [];
    broken.retired[0]!.reason = '';
    assert.ok(validateHistory(broken, built.dataset.units, sources).some((p) => p.includes('no successor and no reason')));
    // Drop one creation from pumi's events: the replay no longer gives pumi's own counts.
    const missing = { ...sources, pumi: sources.pumi.filter((r) => !(r.event === 'created' && r.new_code === '1213')) };
    const problems = validateHistory(history.history, built.dataset.units, missing);
    assert.ok(problems.some((p) => p.includes('replaying the events')), problems.join('\n'));
  });

  it('follows splits and recode chains to today\'s units', () => {
    assert.deepEqual(g.successorsOf('0505'), ['0509', '0510']); // Odongk, split by the sub-decrees of 23 Dec 2022
    assert.deepEqual(g.successorsOf('120601'), ['120608', '120609', '120610']); // Stueng Mean Chey 1-3
    assert.deepEqual(g.successorsOf('120102'), ['121301']); // Boeng Keng Kang 1, Chamkar Mon -> Boeng Keng Kang
    assert.deepEqual(g.successorsOf('141108'), ['141004']);
    assert.equal(g.isRetired('120102'), true);
    assert.equal(g.isRetired('121301'), false);
    assert.equal(g.isRetired('99'), false);
    assert.deepEqual(g.successorsOf('121301'), []);
    // A code retired and later given again (pumi 2018, 2019) is a current unit, not a retired one.
    assert.equal(g.isRetired('130206'), false);
    assert.deepEqual(g.byFormerCode('120102').map((u) => u.name_latin), ['Boeng Keng Kang Ti Muoy']);
  });

  it('knows the former parents of units moved by a reform', () => {
    assert.deepEqual(g.formerParentsOf('121301'), ['1201']); // Boeng Keng Kang khan made from Chamkar Mon (2019)
    assert.deepEqual(g.formerParentsOf('12130101'), ['120102', '1201']); // its villages: the commune's former code too
    assert.deepEqual(g.formerParentsOf('051001'), ['0505']); // Samakki Munichay, from Odongk (2022)
    assert.deepEqual(g.formerParentsOf('250101'), ['03']); // Tboung Khmum, from Kampong Cham (2013)
    assert.deepEqual(g.formerParentsOf('121201'), ['1206']); // Chbar Ampov, from Mean Chey (2013)
    assert.deepEqual(g.formerParentsOf('141106'), ['1408']); // "1408 Move to 1411"
    assert.deepEqual(g.formerParentsOf('200606'), ['2002']); // "ពីមុនស្ថិតនៅក្នុងស្រុកកំពង់រោទិ៍"
    assert.deepEqual(g.formerParentsOf('120516'), ['0801']); // "ផ្លាស់ប្តូរពីស្រុក កណ្ដាលស្ទឹង ខេត្តកណ្តាល"
    assert.deepEqual(g.formerParentsOf('021401'), ['0206']); // "មុនស្ថិននៅក្នុងស្រុកមោងឫស្សី" (sic)
    assert.deepEqual(g.formerParentsOf('04061402'), ['040612']); // "ឃុំថ្មីបំបែកចេញពីឃុំស្វាយជ្រុំ", on the village
    assert.ok(g.formerParentsOf('180601').includes('1802')); // "កាត់ចេញពីស្រុកព្រៃនប់"
    // "ដែលពីមុនស្ថិតនៅក្នុងស្រុកស្វាយរៀង": the srok became Krong Svay Rieng, its parent today; not a move.
    assert.deepEqual(g.formerParentsOf('200601'), []);
    assert.deepEqual(g.formerParentsOf('120201'), []);
    assert.deepEqual(g.formerParentsOf('nope'), []);
  });

  it('lists a unit\'s events with their sources, oldest first', () => {
    const events = g.historyOf('121301');
    assert.ok(events.some((e) => e.event === 'recoded' && e.predecessors[0] === '120102' && e.recorded === '2019-12-12'));
    assert.ok(events.every((e) => e.sources.length > 0));
    assert.ok(events.some((e) => e.sources.some((s) => s.source === 'ncdd-gazetteer-2024-10-14')));
    const tk = g.historyOf('2501');
    const moved = tk.find((e) => e.event === 'moved')!;
    assert.equal(moved.date, '2013-12-31');
    assert.equal(moved.instrument, 'Royal Degree 1445');
    assert.deepEqual(moved.former_parents, ['03']);
    assert.ok(moved.sources.some((s) => s.source === 'curated' && s.ref === 'tboung-khmum-2013'));
    // Sen Sok's first sangkats, from Russey Keo: the act the export cites, told from Boeng Keng Kang's of the same number
    // by the codes.
    for (const code of ['120801', '120802', '120803']) {
      assert.ok(g.historyOf(code).some((e) => e.former_parents.includes('1207') && e.sources.some((s) => s.ref === 'sen-sok-2010')), code);
    }
    assert.deepEqual(g.formerParentsOf('121301').includes('1207'), false);
    assert.deepEqual(g.formerParentsOf('120808'), []); // made later, not from Russey Keo
    // A retired code's history ends with its retirement.
    assert.equal(g.historyOf('0505').at(-1)?.event, 'retired');
    assert.deepEqual(g.historyOf('99'), []);
  });

  it('finds today\'s unit by a former name', () => {
    assert.deepEqual(g.byFormerName('Odongk').map((f) => f.unit.code), ['0509', '0510']);
    assert.deepEqual(g.byFormerName('kampong leav').map((f) => f.unit.code), ['1411']);
    assert.deepEqual(g.byFormerName('Stueng Mean Chey').map((f) => f.unit.code), ['120608', '120609', '120610']);
    assert.ok(g.byFormerName('ពោធិសែនជ័យ').some((f) => f.unit.code === '1209'));
    assert.deepEqual(g.byFormerName('Chamkar Mon'), []); // a current name is not a former one
    // A former Khmer name with no Latin one in the notes is romanised as today's units of that Khmer name are.
    assert.ok(g.byFormerName('Kampot').some((f) => f.unit.code === '0707')); // Tuek Chhou was ស្រុកកំពត
    assert.ok(g.byFormerName('Sampov Meas').some((f) => f.unit.code === '1505'));
    for (const f of g.formerNames()) assert.ok(g.byCode(f.code), f.code);
  });

  it('works without a history (every lookup empty)', () => {
    const bare = new Gazetteer(built.dataset);
    assert.equal(bare.isRetired('0505'), false);
    assert.deepEqual(bare.formerParentsOf('121301'), []);
    assert.deepEqual(bare.historyOf('121301'), []);
  });
});

describe('reading the NCDD notes', () => {
  it('parses the dates the notes are written with', () => {
    assert.equal(parseNoteDate('Royal Degree 1445 on 31 Dec 2013 Move to Tboung Khmum'), '2013-12-31');
    assert.equal(parseNoteDate('Move to New Khan Pur SenChey- 18-May-2011'), '2011-05-18');
    assert.equal(parseNoteDate('អនុក្រឹត្យ ១៤៩ ថ្ងៃទី ០៨ កក្កដា ២០១១'), '2011-07-08');
    assert.equal(parseNoteDate('ចុះថ្ងៃទី09 ខែមករា ឆ្នាំ2009'), '2009-01-09');
    assert.equal(parseNoteDate('អនុក្រឹត្យ ១៤៦ អនក្រ.បក 18/07/2016'), '2016-07-18');
    assert.equal(parseNoteDate('លេខ ៤៩៣ ប្រ.ក'), null);
    assert.equal(parseNoteDate('x'.repeat(100_000)), null);
  });

  it('classifies what a note says happened', () => {
    assert.equal(classifyNote('កែឈ្មោះពី ឃីឡិ ទៅ ឃីឡិក', 'ប្រកាសលេខ ៤៩៣ ប្រ.ក'), 'renamed');
    assert.equal(classifyNote('ភូមិថ្មី', ''), 'created');
    assert.equal(classifyNote('សង្កាត់ថ្មីកាត់ភូមិពីសង្កាត់ប៉ោយប៉ែត', ''), 'created');
    assert.equal(classifyNote('Royal Degree 1445 on 31 Dec 2013 Move to Tboung Khmum', ''), 'moved');
    assert.equal(classifyNote('ពីមុនជាស្រុកបាត់ដំបង ឥឡូវប្ដូរមកជាក្រុងបាត់ដំបង', ''), 'reclassified');
    assert.equal(classifyNote('តាមប្រកាសក្រសួងមហាផ្ទៃ', 'លេខ ៤៩៣ ប្រ.ក'), 'recorded');
  });

  it('reads the former parent a move note names, with its level and province', () => {
    assert.deepEqual(formerParentStated('ពីមុនស្ថិតនៅក្នុងស្រុកកំពង់រោទិ៍'), { level: 'district', km: 'កំពង់រោទិ៍', province: null });
    assert.deepEqual(formerParentStated('ផ្លាស់ប្តូរពីស្រុក កណ្ដាលស្ទឹង ខេត្តកណ្តាល'), { level: 'district', km: 'កណ្ដាលស្ទឹង', province: 'កណ្តាល' });
    assert.deepEqual(formerParentStated('ផ្លាស់ប្តូរពីឃុំ ទៀន ខេត្តកណ្តាល'), { level: 'commune', km: 'ទៀន', province: 'កណ្តាល' });
    assert.deepEqual(formerParentStated('ឃុំថ្មីបំបែកចេញពីឃុំស្វាយជ្រុំ'), { level: 'commune', km: 'ស្វាយជ្រុំ', province: null });
    // Villages cut from a commune into a new one; communes taken from a district into a new krong.
    assert.deepEqual(formerParentStated('សង្កាត់ថ្មីកាត់ភូមិពីសង្កាត់ប៉ោយប៉ែត'), { level: 'commune', km: 'ប៉ោយប៉ែត', province: null });
    assert.deepEqual(formerParentStated('ឃុំថ្មីកាត់ភូមិ៩ពីឃុំត្រែងត្រយឹង'), { level: 'commune', km: 'ត្រែងត្រយឹង', province: null });
    assert.deepEqual(formerParentStated('បង្កើតក្រុងថ្មីដោយកាត់យក៣ឃុំពីស្រុកទឹកឈូ'), { level: 'district', km: 'ទឹកឈូ', province: null });
    assert.equal(formerParentStated('កាត់ទៅខណ្ឌកំបូល'), null);
    assert.equal(formerParentStated('បំបែកចេញពីភូមិត្រពាំងថ្លឹង'), null); // a village: a predecessor, never a parent
  });

  it('gives the units of those notes their former parents, a name spelt with its subscripts swapped included', () => {
    const { events } = JSON.parse(readFileSync(HISTORY_PATH, 'utf8')) as { events: { code: string; former_parents: string[] }[] };
    const formerOf = (code: string) => [...new Set(events.filter((e) => e.code === code).flatMap((e) => e.former_parents))];
    // "cut from Srok ចន្រ្ទា" (for ចន្ទ្រា, Chantrea): Sangkat Bati of Krong Bavet.
    assert.deepEqual(formerOf('200801'), ['2001']);
    // The villages of Sangkat Ou Chrov (2021), cut from Sangkat Poipet.
    assert.deepEqual(formerOf('01100401'), ['011002']);
    // Krong Bokor's communes, taken from Srok Tuek Chhu.
    assert.deepEqual(formerOf('070901'), ['0707']);
  });

  it('reads the former name a reclassification gives, and nothing that is not a name', () => {
    assert.deepEqual(nameBeforeReclassified('ស្តីពីការកែសម្រួលព្រំប្រទល់រដ្ឋបាល និងការប្តូរស្រុកសំពៅមាស ទៅជាក្រុងពោធិសាត់'), { km: 'សំពៅមាស', latin: null });
    assert.deepEqual(nameBeforeReclassified('ត្រួវបានប្តូរឈ្មោះខណ្ឌមិត្តភាព ទៅជាក្រុងព្រះសីហនុ'), { km: 'មិត្តភាព', latin: null });
    assert.deepEqual(nameBeforeReclassified('ត្រូវបានប្តូរស្រុលស្មាច់មានជ័យទៅជាក្រុងខេមរភូមិន្ទ'), { km: 'ស្មាច់មានជ័យ', latin: null });
    assert.equal(nameBeforeReclassified('ប្តូរក្រុង នៃខេត្តប៉ៃលិន ទៅជាក្រុងប៉ៃលិន'), null);
    assert.equal(nameBeforeReclassified('ពីមុនជាស្រុកបាត់ដំបង'), null);
    // In the built history: Krong Pursat was Srok Sampov Meas.
    assert.ok(gazetteer().formerNames().some((n) => n.code === '1505' && n.name === 'សំពៅមាស'));
  });

  it('compares former names without spacing, unit type, case or accents', () => {
    assert.equal(formerNameKey('ខណ្ឌ ចំការមន'), formerNameKey('ចំការមន'));
    assert.equal(formerNameKey('Kampong  Leav'), formerNameKey('kampong leav'));
    assert.equal(formerNameKey('Kratié'), 'kratie');
  });
});
