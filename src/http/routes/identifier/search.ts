/** GET /search and GET /lookup/{postcode}: the identifier-based search and reverse postal-code lookup. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { Gazetteer } from '../../../gazetteer/gazetteer.js';
import { compoundSearch } from '../../../address/compound.js';
import type { AddressResolver } from '../../../address/resolve.js';
import type { SearchIndex } from '../../../search/search-index.js';
import { asciiDigits } from '../../../search/latin.js';
import { invalidRequest, notFound } from '../../errors.js';
import { type PayloadCache, unitKeysByLang } from '../../payload-cache.js';
import { TAGS } from '../../plugins/openapi.js';
import { nameIn } from '../../presenters/identifier.js';
import { errorResponses, IdentifierError, LangQuery, NotModified } from '../../schemas/common.js';
import { Envelope } from '../../schemas/identifier.js';
import { LookupResult, PostcodeParams, SearchData, SearchQuery } from '../../schemas/search.js';

/** The trimmed query, or a 400 if nothing is left. */
export function searchText(q: string): string {
  const text = q.trim();
  if (!text) throw invalidRequest('Invalid query parameter q: must not be blank.', [{ in: 'query', parameter: 'q', message: 'must not be blank' }]);
  return text;
}

const POSTCODE_HELP = 'A Cambodian postal code is 6 digits: 2 for the province, 2 for the district and 2 for the commune, '
  + 'e.g. 120101 (Sangkat Tonle Basak, Phnom Penh); a province\'s ends in 0000, a district\'s in 00.';

export async function identifierSearchRoutes(app: FastifyInstance, { gazetteer, search, resolver, payloads }: {
  gazetteer: Gazetteer; search: SearchIndex; resolver: AddressResolver; payloads: PayloadCache;
}): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get('/search', {
    schema: {
      operationId: 'search',
      tags: [TAGS.search],
      summary: 'Find provinces, districts, communes and villages by name (Khmer or Latin, any romanization) or postal code',
      querystring: SearchQuery,
      response: { 200: Envelope(SearchData, 'One page of results, best first.'), 304: NotModified, ...errorResponses(IdentifierError) },
    },
  }, (request, reply) => {
    const { q, lang = 'en', page = 1, pageSize = 10 } = request.query;
    const text = searchText(q);
    payloads.sendIdentifier(reply, `search|${lang}|${page}|${pageSize}|${text}`, () => {
      const { total, hits } = compoundSearch(search, resolver, text, { offset: (page - 1) * pageSize, limit: pageSize });
      const items = hits.map(({ unit, match }): Static<typeof SearchData>['items'][number] => {
        const parent = unit.parent_code === null ? undefined : gazetteer.byCode(unit.parent_code)!;
        return {
          kind: 'location', slug: unit.slug, name: nameIn(unit, lang), type: unit.type, href: unit.href,
          postal_code_prefix: gazetteer.postalSpan(unit.code).prefix,
          ...(parent ? { parent_name: nameIn(parent, lang) } : {}),
          code: unit.code, id: unit.id, match,
        };
      });
      return { items, total, page, pageSize };
    }, 'repeated');
  });

  const lookupKey = unitKeysByLang('lookup|');
  typed.get('/lookup/:postcode', {
    schema: {
      operationId: 'lookupPostcode',
      tags: [TAGS.search],
      summary: 'The province, district or commune of a postal code, with its parents',
      description: `${POSTCODE_HELP} Villages have no postal code of their own: they use their commune's. For a province's code the `
        + 'district_* and commune_* fields are null; for a district\'s, commune_* are null.',
      params: PostcodeParams,
      querystring: LangQuery,
      response: { 200: Envelope(LookupResult, 'The unit that owns the postal code.'), 304: NotModified, ...errorResponses(IdentifierError) },
    },
  }, (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const postcode = asciiDigits(request.params.postcode.trim());
    if (!/^\d{6}$/.test(postcode)) {
      throw invalidRequest(`Invalid path parameter postcode: ${POSTCODE_HELP}`, [{ in: 'path', parameter: 'postcode', message: 'must be 6 digits' }]);
    }
    const unit = gazetteer.byPostalCode(postcode);
    if (!unit) throw notFound(`No province, district or commune has postal code ${postcode}.`);
    // Keyed by the unit that owns the code (one per code): a key kept per unit, not a string made on every request.
    payloads.sendIdentifier(reply, lookupKey(unit.code, lang), () => {
      const [province, district, commune] = [...gazetteer.ancestors(unit.code), unit];
      const span = gazetteer.postalSpan(unit.code);
      return {
        slug: unit.slug, name: nameIn(unit, lang), type: unit.type as 'province' | 'capital' | 'district' | 'commune',
        postal_code: unit.postal_code, postal_code_prefix: span.prefix, postal_code_range: span.range,
        province_slug: province!.slug, province_name: nameIn(province!, lang),
        district_slug: district?.slug ?? null, district_name: district ? nameIn(district, lang) : null,
        commune_slug: commune?.slug ?? null, commune_name: commune ? nameIn(commune, lang) : null,
        code: unit.code, id: unit.id, href: unit.href,
      };
    });
  });
}
