/** GET /v1/search: the code-based search, `{ status, data: [records], meta: { total, page, pageSize } }`. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '../../schemas/type.js';
import { compoundSearch } from '../../../address/compound.js';
import type { AddressResolver } from '../../../address/resolve.js';
import type { SearchIndex } from '../../../search/search-index.js';
import type { PayloadCache } from '../../payload-cache.js';
import { TAGS } from '../../plugins/openapi.js';
import { v1Record } from '../../presenters/v1.js';
import { errorResponses, NotModified, V1Error } from '../../schemas/common.js';
import { V1SearchMeta, V1SearchQuery, V1SearchRecord } from '../../schemas/search.js';
import { searchText } from '../identifier/search.js';

export async function v1SearchRoutes(app: FastifyInstance, { search, resolver, payloads }: { search: SearchIndex; resolver: AddressResolver; payloads: PayloadCache }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get('/v1/search', {
    schema: {
      operationId: 'v1Search',
      tags: [TAGS.search],
      summary: 'Find units by name or postal code; each result is the record of its level plus `level` and `match`',
      querystring: V1SearchQuery,
      response: {
        200: Type.Object({ status: Type.Literal('success'), data: Type.Array(V1SearchRecord), meta: V1SearchMeta },
          { additionalProperties: false, description: 'One page of results, best first.' }),
        304: NotModified,
        ...errorResponses(V1Error),
      },
    },
  }, (request, reply) => {
    const { q, page = 1, pageSize = 10 } = request.query;
    const text = searchText(q);
    payloads.sendWhole(reply, `v1search|${page}|${pageSize}|${text}`, () => {
      const { total, hits } = compoundSearch(search, resolver, text, { offset: (page - 1) * pageSize, limit: pageSize });
      return {
        status: 'success' as const,
        data: hits.map(({ unit, match }) => ({ ...v1Record(unit), level: unit.level, match })),
        meta: { total, page, pageSize },
      };
    }, 'repeated');
  });
}
