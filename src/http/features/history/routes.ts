/**
 * The history of a unit, in both shapes: GET /v1/units/{code}/history and GET /units/{id}/history.
 * A retired code (or the id made from it) is welcome here: it answers its history, with its successors.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '../../schemas/type.js';
import type { Gazetteer } from '../../../gazetteer/gazetteer.js';
import { notFound } from '../../errors.js';
import { type PayloadCache, unitKeys, unitKeysByLang } from '../../payload-cache.js';
import { TAGS } from '../../plugins/openapi.js';
import { errorResponses, IdentifierError, IdParams, LangQuery, NoQuery, NotModified, V1Error } from '../../schemas/common.js';
import { Envelope } from '../../schemas/identifier.js';
import { V1Envelope } from '../../schemas/v1.js';
import { identifierHistory, namedCode, v1History } from './presenters.js';
import { IdentifierHistory, V1History } from './schemas.js';

const DESCRIPTION = 'Events since 2016 from the history of the pumi gazetteer (created, retired, recoded, renamed; dated by ' +
  'pumi\'s sync, `recorded`), and the legal acts of the NCDD export of 2024-10-14 (`instrument`, `date`: moves, renames, new ' +
  'units, reclassifications, and the 2013 reforms). Each event lists its sources. A retired code answers its history here ' +
  '(elsewhere it is 410 Gone), with the units that replaced it.';

/** The errors of a history route: no 410 here (a retired code answers its history). */
function historyErrors<T extends Parameters<typeof errorResponses>[0]>(envelope: T) {
  const all: Partial<ReturnType<typeof errorResponses<T>>> = errorResponses(envelope);
  delete all[410];
  return all;
}

export async function historyRoutes(app: FastifyInstance, { gazetteer, payloads }: { gazetteer: Gazetteer; payloads: PayloadCache }): Promise<void> {
  const v1Key = unitKeys('v1|history|');
  const key = unitKeysByLang('history|');
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get('/v1/units/:code/history', {
    schema: {
      operationId: 'v1GetUnitHistory',
      tags: [TAGS.v1],
      summary: 'The history of a unit by code (current or retired): events with their legal acts and sources',
      description: DESCRIPTION,
      params: Type.Object({
        code: Type.String({ pattern: '^(?:[0-9]{2}|[0-9]{4}|[0-9]{6}|[0-9]{8})$', description: 'NCDD code: 2, 4, 6 or 8 digits.',
          examples: ['121301'] }),
      }, { additionalProperties: false }),
      querystring: NoQuery,
      response: { 200: V1Envelope(V1History, 'The unit\'s history (a one-element array).'), 304: NotModified, ...historyErrors(V1Error) },
    },
  }, (request, reply) => {
    const { code } = request.params;
    const unit = namedCode(gazetteer, code);
    if (!unit) throw notFound(`No unit has or had code ${code}.`);
    payloads.sendWhole(reply, v1Key(unit.code), () => ({ status: 'success' as const, data: [v1History(gazetteer, unit)] }));
  });

  typed.get('/units/:id/history', {
    schema: {
      operationId: 'getUnitHistory',
      tags: [TAGS.hierarchy],
      summary: 'The history of a unit by id (current or retired), names in `lang`',
      description: DESCRIPTION,
      params: IdParams,
      querystring: LangQuery,
      response: { 200: Envelope(IdentifierHistory, 'The unit\'s history.'), 304: NotModified, ...historyErrors(IdentifierError) },
    },
  }, (request, reply) => {
    const { id } = request.params;
    const lang = (request.query as { lang?: 'en' | 'km' }).lang ?? 'en';
    const code = gazetteer.byId(id)?.code ?? gazetteer.retiredCodeOfId(id);
    const unit = code === undefined ? undefined : namedCode(gazetteer, code);
    if (!unit) throw notFound(`No unit has or had id ${id}.`);
    payloads.sendIdentifier(reply, key(unit.code, lang), () => identifierHistory(gazetteer, unit, lang));
  });
}
