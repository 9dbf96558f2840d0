/** Schemas of the unit history, both shapes: one event record, and the history of a unit. */
import { Type } from '../../schemas/type.js';
import { EVENT_KINDS, LEVELS } from '../../../gazetteer/types.js';

const Codes = (description: string) => Type.Array(Type.String({ pattern: '^[0-9]{2,8}$' }), { description });

export const EventSourceRecord = Type.Object({
  source: Type.Enum(['pumi-history', 'ncdd-gazetteer-2024-10-14', 'curated'], {
    description: '`pumi-history`: a commit of pumi\'s data (ref: the commit); `ncdd-gazetteer-2024-10-14`: the Reference and ' +
      'Official Note columns of the NCDD export (ref: the row\'s code); `curated`: a reviewed rule of the build (ref: its id).',
  }),
  ref: Type.String(),
  text: Type.String({ description: 'The source\'s own words (often Khmer), or the curated evidence.' }),
}, { additionalProperties: false });

/** One event; the same record in both shapes (codes, both names). */
export const EventRecord = Type.Object({
  event: Type.Enum(EVENT_KINDS, {
    description: 'created, retired, recoded (new code; `predecessors` has the old one), renamed (`name_before_*`), ' +
      'moved (to another parent; `former_parents`), reclassified (e.g. srok to krong), recorded (a legal act cited for the ' +
      'unit without saying what changed).',
  }),
  code: Type.String({ pattern: '^[0-9]{2,8}$', description: 'The unit the event is about (for recoded: the new code).' }),
  level: Type.Enum(LEVELS),
  date: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'Date of the legal act where a source gives it.' }),
  recorded: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
    description: 'When pumi recorded the change (its sync date, not a legal date).',
  }),
  instrument: Type.Union([Type.String(), Type.Null()], { description: 'The legal act as the NCDD export cites it (Reference column).' }),
  predecessors: Codes('Codes the unit had before (recoded).'),
  successors: Codes('Today\'s units that replaced a retired code.'),
  former_parents: Codes('Codes of the units that contained it before the event.'),
  name_before_km: Type.Union([Type.String(), Type.Null()], { description: 'Khmer name before a rename, where a source gives it.' }),
  name_before_en: Type.Union([Type.String(), Type.Null()], { description: 'Latin name before a rename, where a source gives it.' }),
  sources: Type.Array(EventSourceRecord, { minItems: 1, description: 'Where each fact comes from.' }),
}, { additionalProperties: false });

const UnitRefV1 = Type.Object({
  code: Type.String({ pattern: '^[0-9]{2,8}$' }),
  name_en: Type.String(),
  name_km: Type.String(),
}, { additionalProperties: false });

/** `GET /v1/units/{code}/history`: data is a one-element array. */
export const V1History = Type.Object({
  code: Type.String({ pattern: '^[0-9]{2,8}$' }),
  level: Type.Enum(LEVELS),
  current: Type.Boolean({ description: 'false for a retired code (then `successors` lists today\'s units).' }),
  name_en: Type.String(),
  name_km: Type.String(),
  successors: Type.Array(UnitRefV1, { description: 'For a retired code: today\'s units that replaced it.' }),
  former_codes: Codes('Codes this unit had before.'),
  former_parents: Type.Array(UnitRefV1, {
    description: 'Units that contained it before a reform, nearest level first (a former code is named as it was last known).',
  }),
  events: Type.Array(EventRecord, { description: 'Oldest first (legal date, else sync date; undated last).' }),
}, {
  additionalProperties: false,
  examples: [{
    code: '121301', level: 'commune', current: true, name_en: 'Boeng Keng Kang Ti Muoy', name_km: 'បឹងកេងកងទី ១', successors: [],
    former_codes: ['120102'], former_parents: [{ code: '1201', name_en: 'Chamkar Mon', name_km: 'ចំការមន' }], events: [],
  }],
});

const UnitRefIdentifier = Type.Object({
  id: Type.String({ format: 'uuid' }),
  code: Type.String({ pattern: '^[0-9]{2,8}$' }),
  name: Type.String({ description: 'Name in the requested language.' }),
}, { additionalProperties: false });

/** `GET /units/{id}/history`. */
export const IdentifierHistory = Type.Object({
  id: Type.String({ format: 'uuid' }),
  code: Type.String({ pattern: '^[0-9]{2,8}$' }),
  level: Type.Enum(LEVELS),
  current: Type.Boolean({ description: 'false for the id of a retired unit (then `successors` lists today\'s units).' }),
  name: Type.String({ description: 'Name in the requested language (a retired unit: its last known name).' }),
  successors: Type.Array(UnitRefIdentifier),
  former_codes: Codes('Codes this unit had before.'),
  former_parents: Type.Array(UnitRefIdentifier, { description: 'Units that contained it before a reform, nearest level first.' }),
  events: Type.Array(EventRecord, { description: 'Oldest first.' }),
}, { additionalProperties: false });
