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
import { dayOf, nextMonthStart } from '../keys/periods.js';
import { RateLimiter } from '../keys/rate-limiter.js';
import { type Account, isStoreUnavailable, type KeyStore, StoreUnavailableError } from '../keys/store.js';
import { RETRY_AFTER_SECONDS } from '../http/errors.js';
import type { SearchIndex } from '../search/search-index.js';
import { Accounts, SESSION_DAYS, type SignUpProblem } from './accounts.js';
import { dailyChart, lastDays } from './chart.js';
import { type Lang, messages } from './i18n.js';
import { serviceMessages } from './service-messages.js';
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
/** Key changes (create, rename, rotate, revoke) an account may make per minute, in each server process. */
const KEY_ACTIONS_PER_MINUTE = 10;
const LANG_COOKIE = 'kh_lang';
const HTML = 'text/html; charset=utf-8';

declare module 'fastify' {
  interface FastifyRequest {
    account?: Account;
    /** The store could not say whose session this is (an outage): public pages show signed out, the rest 503. */
    sessionUnknown?: boolean;
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
  app.decorateRequest('sessionUnknown', false);
  /** Key changes per account per minute: each costs store writes and, on rotate or revoke, a cache eviction. */
  const keyActionLimiter = new RateLimiter(60_000);

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
    try {
      request.account = await accounts.accountOfSession(request.cookies[SESSION_COOKIE]);
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      // Public pages still work (signed out); pages that need the account answer 503 (requireAccount).
      request.log.warn({ err: error }, 'session lookup failed: the key store is unavailable');
      request.sessionUnknown = true;
    }
  });

  const requireAccount = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.sessionUnknown) throw new StoreUnavailableError('the session could not be looked up');
    if (!request.account) return reply.redirect('/signin', 303);
  };

  /** At most KEY_ACTIONS_PER_MINUTE key changes per account (checked and taken before any store call). */
  const limitKeyActions = async (request: FastifyRequest, reply: FastifyReply) => {
    const decision = keyActionLimiter.take(request.account!.id, KEY_ACTIONS_PER_MINUTE);
    if (decision.allowed) return;
    const ctx = await context(request, reply);
    reply.header('retry-after', String(decision.resetSeconds));
    return page(reply, messagePage(ctx, '429', serviceMessages(ctx.lang).tooManyKeyActions), 429);
  };

  // Pages of this scope answer errors as pages, not JSON; a missing or stale CSRF token is a 403.
  app.setErrorHandler(async (error, request, reply) => {
    const ctx = await context(request, reply);
    if ((error as { statusCode?: number }).statusCode === undefined && isStoreUnavailable(error)) {
      // An outage of the store (down, stalled, dropped, refusing): say so, in the page's language, and when to retry.
      request.log.warn({ err: error }, 'dashboard request failed: the key store is unavailable');
      const t = serviceMessages(ctx.lang);
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return page(reply, messagePage(ctx, t.storeDownTitle, t.storeDown), 503);
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'dashboard request failed');
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
  const keyForm = { schema: { hide: true }, preHandler: [app.csrfProtection, requireAccount, limitKeyActions] };
  const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

  app.get('/dashboard', keyAction, async (request, reply) => {
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
    return page(reply, dashboardPage(ctx, rows, options.operatorContact));
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
    access.forgetKey(record.id);
    return page(reply, keyShownPage(await context(request, reply), key, record, origin(request)));
  });

  app.post('/dashboard/keys/:id/revoke', keyForm, async (request, reply) => {
    const { id } = await ownKey(request);
    await store.revokeKey(id, new Date().toISOString());
    // This process refuses the key at once; other replicas within KEY_CACHE_TTL_MS.
    access.forgetKey(id);
    return reply.redirect('/dashboard', 303);
  });
}
