/**
 * The developer dashboard: landing page with a live search, sign-up, sign-in, sign-out, and the keys and usage of
 * the signed-in developer. Server-rendered HTML; forms carry a CSRF token (@fastify/csrf-protection, secret in a
 * cookie); the session is a random token in an http-only, SameSite=Lax cookie (Secure over HTTPS), stored hashed.
 */
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Gazetteer } from '../gazetteer/gazetteer.js';
import type { AccessControl } from '../keys/access-control.js';
import { createKey, rotateKey } from '../keys/issue-keys.js';
import { parseOrigins } from '../keys/origins.js';
import { dayOf, nextMonthStart } from '../keys/periods.js';
import { RateLimiter } from '../keys/rate-limiter.js';
import type { Account, KeyStore } from '../keys/store.js';
import type { SearchIndex } from '../search/search-index.js';
import { Accounts, SESSION_DAYS, type SignUpProblem } from './accounts.js';
import { dailyChart, lastDays } from './chart.js';
import { type Lang, messages } from './i18n.js';
import { confirmPage, credentialsPage, dashboardPage, keyShownPage, landingPage, messagePage, type PageContext } from './pages.js';

export interface DashboardOptions {
  store: KeyStore;
  access: AccessControl;
  gazetteer: Gazetteer;
  search: SearchIndex;
  /** Shown to developers who need a higher plan. */
  operatorContact: string;
}

const SESSION_COOKIE = 'kh_session';
const LANG_COOKIE = 'kh_lang';
const HTML = 'text/html; charset=utf-8';

declare module 'fastify' {
  interface FastifyRequest {
    account?: Account;
  }
}

export async function dashboardRoutes(app: FastifyInstance, options: DashboardOptions): Promise<void> {
  const { store, access, gazetteer, search } = options;
  const accounts = new Accounts(store);
  /** The landing page's live search: a demo, not a free API. Five searches a second per client address. */
  const demoLimiter = new RateLimiter();

  // Security headers for these HTML pages: a strict CSP (the page's one style and one script carry a nonce), no
  // framing, no MIME sniffing, no referrer across origins. (JSON responses do not need them.)
  await app.register(helmet, {
    enableCSPNonces: true,
    // No upgrade-insecure-requests: over plain HTTP (local development) it would send the forms to https.
    contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], formAction: ["'self'"], frameAncestors: ["'none'"], imgSrc: ["'self'", 'data:'], upgradeInsecureRequests: null } },
  });
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  await app.register(csrf, { cookieOpts: { httpOnly: true, sameSite: 'lax', path: '/', signed: false } });
  app.decorateRequest('account', undefined);

  const secure = (request: FastifyRequest) => request.protocol === 'https';

  /** The page language: ?lang= (remembered in a cookie), else the cookie, else English. */
  const langOf = (request: FastifyRequest, reply: FastifyReply): Lang => {
    const asked = (request.query as { lang?: string }).lang;
    if (asked === 'en' || asked === 'km') {
      reply.setCookie(LANG_COOKIE, asked, { path: '/', sameSite: 'lax', httpOnly: true, secure: secure(request), maxAge: 365 * 86400 });
      return asked;
    }
    return request.cookies[LANG_COOKIE] === 'km' ? 'km' : 'en';
  };

  const context = async (request: FastifyRequest, reply: FastifyReply): Promise<PageContext> => ({
    lang: langOf(request, reply),
    email: request.account?.email,
    csrf: reply.generateCsrf(),
    path: request.url,
    nonce: reply.cspNonce,
  });

  const page = (reply: FastifyReply, body: string, status = 200) => reply.code(status).type(HTML).header('cache-control', 'no-store').send(body);

  app.addHook('onRequest', async (request) => {
    request.account = await accounts.accountOfSession(request.cookies[SESSION_COOKIE]);
  });

  const requireAccount = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.account) return reply.redirect('/signin', 303);
  };

  // Pages of this scope answer errors as pages, not JSON; a missing or stale CSRF token is a 403.
  app.setErrorHandler(async (error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'dashboard request failed');
    const ctx = await context(request, reply);
    const t = messages(ctx.lang);
    const text = status === 403 ? t.forbidden : status < 500 ? (error as Error).message : 'Something went wrong on our side.';
    return page(reply, messagePage(ctx, String(status), text), status);
  });

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const ctx = await context(request, reply);
    const q = String((request.query as { q?: unknown }).q ?? '').trim().slice(0, 200);
    let results;
    let limited = false;
    if (q) {
      if (demoLimiter.take(request.ip, 5).allowed) {
        results = search.search(q, { limit: 10 }).hits.map(({ unit }) => ({
          unit, parent: unit.parent_code === null ? undefined : gazetteer.byCode(unit.parent_code),
        }));
      } else {
        limited = true;
      }
    }
    return page(reply, landingPage(ctx, q, results, limited), limited ? 429 : 200);
  });

  for (const mode of ['signup', 'signin'] as const) {
    app.get(`/${mode}`, { schema: { hide: true } }, async (request, reply) => {
      if (request.account) return reply.redirect('/dashboard', 303);
      return page(reply, credentialsPage(await context(request, reply), mode, undefined, ''));
    });
  }

  const startSession = async (request: FastifyRequest, reply: FastifyReply, account: Account) => {
    const { token } = await accounts.startSession(account.id);
    reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: secure(request), maxAge: SESSION_DAYS * 86400 });
    return reply.redirect('/dashboard', 303);
  };

  const form = (request: FastifyRequest) => (request.body ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');

  app.post('/signup', { schema: { hide: true }, preHandler: app.csrfProtection }, async (request, reply) => {
    const { email, password } = form(request);
    const result = await accounts.signUp(text(email), text(password));
    if (typeof result === 'string') {
      const ctx = await context(request, reply);
      return page(reply, credentialsPage(ctx, 'signup', messages(ctx.lang)[result satisfies SignUpProblem], text(email)), 400);
    }
    return startSession(request, reply, result);
  });

  app.post('/signin', { schema: { hide: true }, preHandler: app.csrfProtection }, async (request, reply) => {
    const { email, password } = form(request);
    const result = await accounts.signIn(text(email), text(password), request.ip);
    if (result === undefined || result === 'blocked') {
      const ctx = await context(request, reply);
      const t = messages(ctx.lang);
      return page(reply, credentialsPage(ctx, 'signin', result === 'blocked' ? t.tooManyAttempts : t.badCredentials, text(email)), result === 'blocked' ? 429 : 401);
    }
    return startSession(request, reply, result);
  });

  app.post('/signout', { schema: { hide: true }, preHandler: app.csrfProtection }, async (request, reply) => {
    await accounts.endSession(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.redirect('/', 303);
  });

  /** The signed-in developer's key, or a 404 for anybody else's (never says whose it is). */
  const ownKey = async (request: FastifyRequest) => {
    const { id } = request.params as { id: string };
    const key = await store.getKey(id);
    if (!key || key.ownerId !== request.account!.id) throw Object.assign(new Error('No such key.'), { statusCode: 404 });
    return key;
  };
  const keyAction = { schema: { hide: true }, preHandler: requireAccount };
  // The CSRF check needs the parsed form: preHandler, not onRequest.
  const keyForm = { schema: { hide: true }, preHandler: [app.csrfProtection, requireAccount] };
  const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

  /** The dashboard page; `error` (with its status) when a form was refused. */
  const showDashboard = async (request: FastifyRequest, reply: FastifyReply, error?: string) => {
    const ctx = await context(request, reply);
    const now = new Date();
    const keys = await store.listKeys({ ownerId: request.account!.id });
    const plans = new Map((await store.listPlans()).map((p) => [p.name, p]));
    const today = dayOf(now);
    const rows = await Promise.all(keys.map(async (key) => {
      await access.meter.load(key.id);
      const used = access.meter.used(key.id);
      const days = await store.dailyUsage(key.id, dayOf(new Date(now.getTime() - 29 * 86_400_000)), today);
      // The store is up to one flush behind: requests counted here but not yet written belong to today.
      const storedThisMonth = days.filter((d) => d.day.slice(0, 7) === today.slice(0, 7)).reduce((n, d) => n + d.count, 0);
      const unwritten = Math.max(0, used - storedThisMonth);
      if (unwritten > 0) {
        const entry = days.find((d) => d.day === today);
        if (entry) entry.count += unwritten;
        else days.push({ day: today, count: unwritten });
      }
      return {
        key, plan: plans.get(key.plan)!, used,
        chart: dailyChart(lastDays(today, 30, days), messages(ctx.lang).perDay),
        resetsOn: nextMonthStart(now).toISOString().slice(0, 10),
      };
    }));
    return page(reply, dashboardPage(ctx, rows, options.operatorContact, error), error ? 400 : 200);
  };
  app.get('/dashboard', keyAction, (request, reply) => showDashboard(request, reply));

  /** The origins typed in a form (one per line, or separated by spaces or commas); a message when they are not usable. */
  const formOrigins = (request: FastifyRequest) => {
    const raw = text(form(request).origins).slice(0, 4200);
    return parseOrigins(raw.split(/[\s,]+/).slice(0, 100));
  };

  app.post('/dashboard/browser-keys', keyForm, async (request, reply) => {
    const name = text(form(request).name).trim().slice(0, 80) || null;
    const parsed = formOrigins(request);
    if ('problem' in parsed) return showDashboard(request, reply, parsed.problem);
    const { key, record } = await createKey(store, { plan: 'free', name, ownerId: request.account!.id, origins: parsed.origins });
    return page(reply, keyShownPage(await context(request, reply), key, record, origin(request)), 201);
  });

  app.post('/dashboard/keys/:id/origins', keyForm, async (request, reply) => {
    const key = await ownKey(request);
    const parsed = formOrigins(request);
    if ('problem' in parsed) return showDashboard(request, reply, parsed.problem);
    await store.setKeyOrigins(key.id, parsed.origins);
    // This process applies the new origins at once; other replicas within KEY_CACHE_TTL_MS.
    access.forgetCachedKeys();
    return reply.redirect('/dashboard', 303);
  });

  app.post('/dashboard/keys', keyForm, async (request, reply) => {
    const name = text(form(request).name).trim().slice(0, 80) || null;
    const { key, record } = await createKey(store, { plan: 'free', name, ownerId: request.account!.id });
    return page(reply, keyShownPage(await context(request, reply), key, record, origin(request)), 201);
  });

  app.post('/dashboard/keys/:id/rename', keyForm, async (request, reply) => {
    const key = await ownKey(request);
    await store.renameKey(key.id, text(form(request).name).trim().slice(0, 80) || null);
    return reply.redirect('/dashboard', 303);
  });

  for (const action of ['rotate', 'revoke'] as const) {
    app.get(`/dashboard/keys/:id/${action}`, keyAction, async (request, reply) => {
      const key = await ownKey(request);
      if (key.revokedAt) return reply.redirect('/dashboard', 303);
      return page(reply, confirmPage(await context(request, reply), action, key));
    });
  }

  app.post('/dashboard/keys/:id/rotate', keyForm, async (request, reply) => {
    const { key, record } = await rotateKey(store, (await ownKey(request)).id);
    access.forgetCachedKeys();
    return page(reply, keyShownPage(await context(request, reply), key, record, origin(request)));
  });

  app.post('/dashboard/keys/:id/revoke', keyForm, async (request, reply) => {
    await store.revokeKey((await ownKey(request)).id, new Date().toISOString());
    // This process refuses the key at once; other replicas within KEY_CACHE_TTL_MS.
    access.forgetCachedKeys();
    return reply.redirect('/dashboard', 303);
  });
}
