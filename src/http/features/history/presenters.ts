/** The history of a unit in the two response shapes. */
import type { Static } from 'typebox';
import type { Gazetteer } from '../../../gazetteer/gazetteer.js';
import type { Level, UnitEvent } from '../../../gazetteer/types.js';
import { unitId } from '../../../gazetteer/uuid.js';
import type { EventRecord, IdentifierHistory, V1History } from './schemas.js';

type Lang = 'en' | 'km';

export function eventRecord(e: UnitEvent): Static<typeof EventRecord> {
  return {
    event: e.event,
    code: e.code,
    level: e.level,
    date: e.date,
    recorded: e.recorded,
    instrument: e.instrument,
    predecessors: e.predecessors,
    successors: e.successors,
    former_parents: e.former_parents,
    name_before_km: e.name_before?.km ?? null,
    name_before_en: e.name_before?.latin ?? null,
    sources: e.sources,
  };
}

interface Named {
  code: string;
  level: Level;
  name_en: string;
  name_km: string;
  current: boolean;
}

/** A current or retired code with its names; undefined for an unknown code. */
export function namedCode(gazetteer: Gazetteer, code: string): Named | undefined {
  const unit = gazetteer.byCode(code);
  if (unit) return { code, level: unit.level, name_en: unit.name_latin, name_km: unit.name_km, current: true };
  const retired = gazetteer.retired(code);
  if (retired) return { code, level: retired.level, name_en: retired.name_latin, name_km: retired.name_km, current: false };
  return undefined;
}

/** The parts both shapes share. */
function historyParts(gazetteer: Gazetteer, code: string) {
  const named = (c: string) => namedCode(gazetteer, c)!;
  return {
    successors: gazetteer.successorsOf(code).map(named),
    formerCodes: gazetteer.formerCodesOf(code),
    formerParents: gazetteer.formerParentsOf(code).map(named),
    events: gazetteer.historyOf(code).map(eventRecord),
  };
}

export function v1History(gazetteer: Gazetteer, unit: Named): Static<typeof V1History> {
  const parts = historyParts(gazetteer, unit.code);
  const ref = (n: Named) => ({ code: n.code, name_en: n.name_en, name_km: n.name_km });
  return {
    code: unit.code, level: unit.level, current: unit.current, name_en: unit.name_en, name_km: unit.name_km,
    successors: parts.successors.map(ref), former_codes: parts.formerCodes, former_parents: parts.formerParents.map(ref),
    events: parts.events,
  };
}

export function identifierHistory(gazetteer: Gazetteer, unit: Named, lang: Lang): Static<typeof IdentifierHistory> {
  const parts = historyParts(gazetteer, unit.code);
  const name = (n: Named) => (lang === 'km' ? n.name_km : n.name_en);
  const ref = (n: Named) => ({ id: unitId(n.code), code: n.code, name: name(n) });
  return {
    id: unitId(unit.code), code: unit.code, level: unit.level, current: unit.current, name: name(unit),
    successors: parts.successors.map(ref), former_codes: parts.formerCodes, former_parents: parts.formerParents.map(ref),
    events: parts.events,
  };
}
