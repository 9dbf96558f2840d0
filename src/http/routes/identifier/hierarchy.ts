/**
 * The identifier-based hierarchy: /provinces, /districts/{id}, /communes/{id}/villages, ... and /locations/{slugs}.
 * Units are found by UUID; an id of another level is a 404 (a district id is not a province).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '../../schemas/type.js';
import type { Gazetteer } from '../../../gazetteer/gazetteer.js';
import type { Level, Unit } from '../../../gazetteer/types.js';
import type { Locator } from '../../../geo/locations.js';
import { invalidRequest, notFound, unitById } from '../../errors.js';
import { type PayloadCache, unitKeysByLang } from '../../payload-cache.js';
import { TAGS } from '../../plugins/openapi.js';
import { identifierPresenters, type Lang } from '../../presenters/identifier.js';
import { errorResponses, IdentifierError, idParams, LangQuery, NotModified } from '../../schemas/common.js';
import {
  AnyDetail, CommuneDetail, CommuneListItem, DistrictDetail, DistrictListItem, Envelope, ListEnvelope, ProvinceDetail,
  ProvinceListItem, VillageDetail, VillageListItem,
} from '../../schemas/identifier.js';

const PLURAL: Record<Level, string> = { province: 'provinces', district: 'districts', commune: 'communes', village: 'villages' };
const SLUG_SEGMENT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function responses<T extends object>(ok: T) {
  return { 200: ok, 304: NotModified, ...errorResponses(IdentifierError) };
}

export async function identifierHierarchyRoutes(app: FastifyInstance, { gazetteer, payloads, locate }: { gazetteer: Gazetteer; payloads: PayloadCache; locate?: Locator }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const present = identifierPresenters(gazetteer, locate);
  const langOf = (request: FastifyRequest) => ((request.query as { lang?: Lang }).lang ?? 'en');

  const detailKey = unitKeysByLang('detail|');
  /** The detail body of a unit: the same for its id and its slug path. */
  const detailBody = (reply: FastifyReply, unit: Unit, lang: Lang) => {
    // Locations derive from the boundaries (CC BY 4.0): their attribution goes with them.
    if (locate && unit.level !== 'village') reply.header('x-attribution', locate.attribution);
    payloads.sendIdentifier(reply, detailKey(unit.code, lang), () => present.detail(unit, lang));
  };

  // The id of a retired unit answers 410 Gone with its successors.
  const find = (id: string, level: Level): Unit => unitById(gazetteer, id, level);

  typed.get('/provinces', {
    schema: {
      operationId: 'listProvinces',
      tags: [TAGS.hierarchy],
      summary: 'All 25 provinces (Phnom Penh is the capital), ordered by code',
      querystring: LangQuery,
      response: responses(ListEnvelope(ProvinceListItem, 'The provinces.')),
    },
  }, (request, reply) => {
    const lang = langOf(request);
    payloads.sendIdentifier(reply, lang === 'km' ? 'provinces|km' : 'provinces|en',
      () => ({ items: gazetteer.provinces().map((u) => present.provinceListItem(u, lang)) }));
  });

  const details = [
    { level: 'province', schema: ProvinceDetail, operationId: 'getProvince' },
    { level: 'district', schema: DistrictDetail, operationId: 'getDistrict' },
    { level: 'commune', schema: CommuneDetail, operationId: 'getCommune' },
    { level: 'village', schema: VillageDetail, operationId: 'getVillage' },
  ] as const;
  for (const { level, schema, operationId } of details) {
    typed.get(`/${PLURAL[level]}/:id`, {
      schema: {
        operationId,
        tags: [TAGS.hierarchy],
        summary: `One ${level} by id, with its parents' names and counts of the units below it`,
        params: idParams(level),
        querystring: LangQuery,
        response: responses(Envelope(schema, `The ${level}.`)),
      },
    }, (request, reply) => detailBody(reply, find(request.params.id, level), langOf(request)));
  }

  const lists = [
    { level: 'province', childLevel: 'district', item: DistrictListItem, present: present.districtListItem, operationId: 'listDistrictsOfProvince' },
    { level: 'district', childLevel: 'commune', item: CommuneListItem, present: present.communeListItem, operationId: 'listCommunesOfDistrict' },
    { level: 'commune', childLevel: 'village', item: VillageListItem, present: present.villageListItem, operationId: 'listVillagesOfCommune' },
  ] as const;
  const childrenKey = unitKeysByLang('children|');
  for (const { level, childLevel, item, present: presentItem, operationId } of lists) {
    typed.get(`/${PLURAL[level]}/:id/${PLURAL[childLevel]}`, {
      schema: {
        operationId,
        tags: [TAGS.hierarchy],
        summary: `The ${PLURAL[childLevel]} of a ${level}, ordered by code`,
        params: idParams(level),
        querystring: LangQuery,
        response: responses(ListEnvelope(item, `The ${PLURAL[childLevel]}.`)),
      },
    }, (request, reply) => {
      const unit = find(request.params.id, level);
      const lang = langOf(request);
      payloads.sendIdentifier(reply, childrenKey(unit.code, lang),
        () => ({ items: gazetteer.children(unit.code).map((child) => presentItem(child, lang)) }));
    });
  }

  typed.get('/locations/*', {
    schema: {
      operationId: 'getLocationBySlugPath',
      tags: [TAGS.hierarchy],
      summary: 'A unit by its slug path (a search result\'s href), e.g. /locations/phnom-penh/chamkar-mon',
      description: 'One to four lowercase slugs, province first. Answers the unit\'s detail record, as GET /{level}s/{id} does. '
        + 'A path with a slug a unit had before a name repair of the data (e.g. /locations/kratie/kracheh) answers 301 with '
        + 'the current path in Location.',
      params: Type.Object({ '*': Type.String({ description: 'Slugs from the province down, separated by /.', examples: ['phnom-penh/chamkar-mon'] }) }),
      querystring: LangQuery,
      response: { ...responses(Envelope(AnyDetail, 'The unit at that path.')),
        301: Type.Null({ description: 'Moved permanently: a former slug; Location has the unit\'s current path.' }) },
    },
  }, (request, reply) => {
    const slugs = request.params['*'].split('/');
    if (slugs.at(-1) === '') slugs.pop(); // one trailing slash is fine
    if (slugs.length < 1 || slugs.length > 4 || !slugs.every((s) => SLUG_SEGMENT.test(s))) {
      throw invalidRequest('Invalid path: expected /locations/<province>[/<district>[/<commune>[/<village>]]] with lowercase slugs.',
        [{ in: 'path', parameter: '*', message: 'must be 1 to 4 lowercase slugs separated by /' }]);
    }
    const found = gazetteer.resolveSlugPath(slugs);
    if (!found) throw notFound(`Nothing at /locations/${slugs.join('/')}.`);
    if (!found.canonical) {
      // A slug from before a name repair: permanently moved to the unit's current path (the query string kept).
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      void reply.code(301).header('location', `${found.unit.href}${query}`).send(null);
      return;
    }
    detailBody(reply, found.unit, langOf(request));
  });
}
