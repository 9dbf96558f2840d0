/**
 * The code-based hierarchy under /v1: NCDD codes in the path, `{ status: 'success', data: [...] }`.
 * A code of the wrong form is a 400 (from the schema); a well-formed unknown code is a 404.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import { Type } from '../../schemas/type.js';
import type { Gazetteer } from '../../../gazetteer/gazetteer.js';
import type { Level, Unit } from '../../../gazetteer/types.js';
import type { Locator } from '../../../geo/locations.js';
import { CODE_LENGTH } from '../../../gazetteer/types.js';
import { unitByCode } from '../../errors.js';
import { type PayloadCache, unitKeys } from '../../payload-cache.js';
import { TAGS } from '../../plugins/openapi.js';
import { v1Record } from '../../presenters/v1.js';
import { errorResponses, EXAMPLE_CODES, NcddCode, NoQuery, NotModified, V1Error } from '../../schemas/common.js';
import { V1Commune, V1District, V1Envelope, V1Province, V1Village } from '../../schemas/v1.js';

function responses(record: TSchema, description: string) {
  return { 200: V1Envelope(record, description), 304: NotModified, ...errorResponses(V1Error) };
}

export async function v1HierarchyRoutes(app: FastifyInstance, { gazetteer, payloads, locate }: { gazetteer: Gazetteer; payloads: PayloadCache; locate?: Locator }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  /** The cached `{ status, data }` body listing these units. */
  const success = (reply: FastifyReply, key: string, units: () => readonly Unit[]) => {
    // The records' locations derive from the boundaries (CC BY 4.0): their attribution goes with them.
    if (locate) reply.header('x-attribution', locate.attribution);
    payloads.sendWhole(reply, key, () => ({ status: 'success' as const, data: units().map((u) => v1Record(u, locate)) }));
  };
  // A retired code answers 410 Gone with its successors.
  const find = (code: string, level: Level): Unit => unitByCode(gazetteer, code, level);
  const codeParams = (name: string, level: Level) =>
    Type.Object({ [name]: { ...NcddCode(CODE_LENGTH[level], level), examples: [EXAMPLE_CODES[level]] } },
      { additionalProperties: false });

  typed.get('/v1/provinces', {
    schema: {
      operationId: 'v1ListProvinces',
      tags: [TAGS.v1],
      summary: 'All 25 provinces, ordered by code',
      querystring: NoQuery,
      response: responses(V1Province, 'The provinces.'),
    },
  }, (_request, reply) => success(reply, 'v1|provinces', () => gazetteer.provinces()));

  const provinceKey = unitKeys('v1|province|');
  typed.get('/v1/provinces/:province_code', {
    schema: {
      operationId: 'v1GetProvince',
      tags: [TAGS.v1],
      summary: 'One province by its 2-digit code (data is a one-element array)',
      params: codeParams('province_code', 'province'),
      querystring: NoQuery,
      response: responses(V1Province, 'The province.'),
    },
  }, (request, reply) => {
    const province = find((request.params as { province_code: string }).province_code, 'province');
    success(reply, provinceKey(province.code), () => [province]);
  });

  const lists = [
    { path: '/v1/districts/:province_code', param: 'province_code', level: 'province', record: V1District, operationId: 'v1ListDistricts', what: 'districts' },
    { path: '/v1/communes/:district_code', param: 'district_code', level: 'district', record: V1Commune, operationId: 'v1ListCommunes', what: 'communes' },
    { path: '/v1/villages/:commune_code', param: 'commune_code', level: 'commune', record: V1Village, operationId: 'v1ListVillages', what: 'villages' },
  ] as const;
  const childrenKey = unitKeys('v1|children|');
  for (const { path, param, level, record, operationId, what } of lists) {
    typed.get(path, {
      schema: {
        operationId,
        tags: [TAGS.v1],
        summary: `The ${what} of a ${level}, ordered by code`,
        params: codeParams(param, level),
        querystring: NoQuery,
        response: responses(record, `The ${what}.`),
      },
    }, (request, reply) => {
      const parent = find((request.params as Record<string, string>)[param]!, level);
      success(reply, childrenKey(parent.code), () => gazetteer.children(parent.code));
    });
  }
}
