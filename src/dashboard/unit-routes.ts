/**
 * GET /places/{code}: the public unit page (./unit-page.ts). Registered inside the dashboard's scope, so it has its
 * security headers (CSP nonces), language cookie and error pages. A point asked from the page (?lat=&lng=) is looked
 * up here, with no API key: like the landing page's search it is a demo, limited per client address.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Gazetteer } from '../gazetteer/gazetteer.js';
import type { Unit } from '../gazetteer/types.js';
import type { Geography } from '../geo/geography.js';
import { RateLimiter } from '../keys/rate-limiter.js';
import type { PageContext } from './pages.js';
import { drawUnit, type PagePoint, unitPage } from './unit-page.js';

export interface UnitPageOptions {
  gazetteer: Gazetteer;
  geo: Geography;
  context(request: FastifyRequest, reply: FastifyReply): Promise<PageContext>;
  page(reply: FastifyReply, body: string, status?: number): FastifyReply;
}

const CODE = /^(?:[0-9]{2}){1,3}$/;
const DECIMAL = /^[+-]?[0-9]{1,3}(\.[0-9]{1,20})?$/;
/** Drawings kept (each a few to a few hundred KB): the most recent ones. */
const DRAWINGS_KEPT = 200;

export async function unitPageRoutes(app: FastifyInstance, { gazetteer, geo, context, page }: UnitPageOptions): Promise<void> {
  const drawings = new Map<string, { svg: string; neighbours: string[] }>();
  const limiter = new RateLimiter();

  const drawing = (unit: Unit) => {
    let found = drawings.get(unit.code);
    if (found) {
      drawings.delete(unit.code);
    } else {
      const shape = geo.shape(unit.code);
      const drawn = shape ? [shape] : (geo.unshapedCommune(unit.code)?.from ?? []).map((c) => geo.shape(c)!);
      if (drawn.length === 0) return undefined;
      found = drawUnit(geo, gazetteer, unit, drawn);
      if (drawings.size >= DRAWINGS_KEPT) drawings.delete(drawings.keys().next().value!);
    }
    drawings.set(unit.code, found);
    return found;
  };

  app.get('/places/:code', { schema: { hide: true } }, async (request, reply) => {
    const { code } = request.params as { code: string };
    const unit = CODE.test(code) ? gazetteer.byCode(code) : undefined;
    const drawn = unit && drawing(unit);
    if (!unit || !drawn) throw Object.assign(new Error('no such place'), { statusCode: 404 });
    const query = request.query as { lat?: unknown; lng?: unknown };
    let point: PagePoint | undefined;
    if (query.lat !== undefined || query.lng !== undefined) {
      const lat = typeof query.lat === 'string' && DECIMAL.test(query.lat.trim()) ? Number(query.lat) : NaN;
      const lng = typeof query.lng === 'string' && DECIMAL.test(query.lng.trim()) ? Number(query.lng) : NaN;
      if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) point = { kind: 'invalid' };
      else if (!limiter.take(request.ip, 5).allowed) point = { kind: 'limited' };
      else point = { kind: 'answer', lat, lng, answer: geo.reverse(lat, lng) };
    }
    const status = point?.kind === 'invalid' ? 400 : point?.kind === 'limited' ? 429 : 200;
    return page(reply, unitPage(await context(request, reply), gazetteer, geo, unit, drawn, point), status);
  });
}
