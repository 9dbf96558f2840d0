/**
 * The developer dashboard: landing page with a live search, sign-up, sign-in, sign-out, and the keys and usage of
 * the signed-in developer. Server-rendered HTML. The session is a random token in an http-only, SameSite=Lax cookie
 * (Secure over HTTPS), stored hashed. Forms carry a CSRF token (@fastify/csrf-protection) made from a per-browser
 * secret in its own cookie (`__Host-kh_csrf` over HTTPS, `kh_csrf` over plain HTTP) and bound to the session.
 * Forms are accepted only as application/x-www-form-urlencoded, up to FORM_BODY_LIMIT bytes.
 */
import { createHash, randomBytes } from 'node:crypto';
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
import { type Account, type ApiKeyRecord, isStoreUnavailable, type KeyStore, StoreError, StoreUnavailableError } from '../keys/store.js';
import { RETRY_AFTER_SECONDS } from '../http/errors.js';
import type { SearchIndex } from '../search/search-index.js';
import type { Geography } from '../geo/geography.js';
import { unitPageRoutes } from './unit-routes.js';
import { Accounts, SESSION_DAYS, type SignUpProblem } from './accounts.js';
import { dailyChart, lastDays } from './chart.js';
import { fill, type Lang, type MessageKey, messages } from './i18n.js';
import { isKeyId, keyName } from './inputs.js';
import { serviceMessages } from './service-messages.js';
import { confirmPage, credentialsPage, dashboardPage, keyShownPage, landingPage, messagePage, type PageContext } from './pages.js';
import { OneTimeReveals } from './reveals.js';

export interface DashboardOptions {
  store: KeyStore;
  access: AccessControl;
  gazetteer: Gazetteer;
  search: SearchIndex;
  /** Shown to developers who need a higher plan. */
  operatorContact: string;
  /** Live keys an account may have (MAX_KEYS_PER_ACCOUNT); default 10. */
  maxKeysPerAccount?: number;
  /** The boundaries: with them, the public unit pages (/places/{code}, ./unit-routes.ts). */
  geo?: Geography;
  /** The clock of the landing page's search limit, in milliseconds (Date.now; a test sets its own, not to race the window). */
  now?: () => number;
}

const SESSION_COOKIE = 'kh_session';
/** Key changes (create, rename, rotate, revoke) an account may make per minute, in each server process. */
const KEY_ACTIONS_PER_MINUTE = 10;
const LANG_COOKIE = 'kh_lang';
/** The CSRF secret's cookie: `__Host-` over HTTPS (no subdomain can set or shadow it), a plain name over HTTP. */
const CSRF_COOKIE = { https: '__Host-kh_csrf', http: 'kh_csrf' } as const;
/** Where the CSRF plugin reads the secret: copied there from the cookie of this request's protocol, never sent. */
const CSRF_SLOT = 'kh_csrf_secret';
/** What a dashboard form may weigh: the largest (sign-up) holds at most ~3 KB percent-encoded. */
export const FORM_BODY_LIMIT = 8 * 1024;
const HTML = 'text/html; charset=utf-8';

/** An error shown as a page, with a message of the page's language. */
class PageError extends Error {
  constructor(readonly statusCode: number, readonly messageKey: MessageKey) {
    super(messageKey);
  }
}

/** The page message for an error of Fastify or a plugin, by status. */
const MESSAGE_OF_STATUS: Record<number, MessageKey> = { 400: 'badRequest', 403: 'forbidden', 404: 'notFound', 413: 'tooLarge', 415: 'unsupportedForm' };

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

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
  const reveals = new OneTimeReveals();
  /** The landing page's live search: a demo, not a free API. Five searches a second per client address. */
  const demoLimiter = new RateLimiter();
  const now = options.now ?? Date.now;

  // Security headers for these HTML pages: a strict CSP (the page's one style and one script carry a nonce), no
  // framing, no MIME sniffing, no referrer across origins. (JSON responses do not need them.)
  await app.register(helmet, {
    enableCSPNonces: true,
    // No upgrade-insecure-requests: over plain HTTP (local development) it would send the forms to https.
    contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], formAction: ["'self'"], frameAncestors: ["'none'"], imgSrc: ["'self'", 'data:'], upgradeInsecureRequests: null } },
  });
  await app.register(cookie);
  // Only the encoding the pages' forms send (no JSON, no text), and small: see FORM_BODY_LIMIT.
  app.removeAllContentTypeParsers();
  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
  await app.register(csrf, {
    cookieKey: CSRF_SLOT,
    // The token is an HMAC of the browser's secret and of the session: a token made for one session (or for a
    // signed-out visitor) is refused in another, even with the same secret cookie. The HMAC key is not secret: the
    // per-browser secret is.
    getUserInfo: (request: FastifyRequest) => userInfo(request),
    csrfOpts: { hmacKey: 'kh-address dashboard forms' },
  });
  app.decorateRequest('account', undefined);
  app.decorateRequest('sessionUnknown', false);
  /** Key changes per account per minute: each costs store writes and, on rotate or revoke, a cache eviction. */
  const keyActionLimiter = new RateLimiter(60_000);

  const secure = (request: FastifyRequest) => request.protocol === 'https';
  const csrfCookie = (request: FastifyRequest) => (secure(request) ? CSRF_COOKIE.https : CSRF_COOKIE.http);
  /** What CSRF tokens are bound to: the session (by a hash of its token), or the signed-out state. */
  const userInfo = (request: FastifyRequest) => {
    const token = request.cookies[SESSION_COOKIE];
    return request.account && token ? `session:${sha256(token)}` : 'signed-out';
  };
  /** The browser's CSRF secret, made (and its cookie set) on its first page. */
  const csrfToken = (request: FastifyRequest, reply: FastifyReply): string => {
    if (!request.cookies[CSRF_SLOT]) {
      const secret = randomBytes(18).toString('base64url');
      request.cookies[CSRF_SLOT] = secret;
      reply.setCookie(csrfCookie(request), secret, { path: '/', httpOnly: true, sameSite: 'lax', secure: secure(request) });
    }
    return reply.generateCsrf({ userInfo: userInfo(request) });
  };

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
    csrf: csrfToken(request, reply),
    path: request.url,
    nonce: reply.cspNonce,
    origin: origin(request),
    contact: options.operatorContact,
  });
  const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

  const page = (reply: FastifyReply, body: string, status = 200) => reply.code(status).type(HTML).header('cache-control', 'no-store').send(body);

  app.addHook('onRequest', async (request) => {
    // The plugin reads the secret from CSRF_SLOT: only ever the cookie of this request's protocol lands there.
    const secret = request.cookies[csrfCookie(request)];
    if (secret) request.cookies[CSRF_SLOT] = secret;
    else delete request.cookies[CSRF_SLOT];
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
    // A key id that is not of the key format never reaches the store (404 in ownKey): not worth a turn.
    const { id } = (request.params ?? {}) as { id?: string };
    if (id !== undefined && !isKeyId(id)) return;
    const decision = keyActionLimiter.take(request.account!.id, KEY_ACTIONS_PER_MINUTE);
    if (decision.allowed) return;
    const ctx = await context(request, reply);
    reply.header('retry-after', String(decision.resetSeconds));
    return page(reply, messagePage(ctx, fill(messages(ctx.lang).errorTitle, { status: 429 }, ctx.lang), serviceMessages(ctx.lang).tooManyKeyActions), 429);
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
    const key = error instanceof PageError ? error.messageKey : status >= 500 ? 'serverError' : MESSAGE_OF_STATUS[status] ?? 'badRequest';
    return page(reply, messagePage(ctx, fill(t.errorTitle, { status }, ctx.lang), t[key], key === 'noSuchKey' ? 'dashboard' : 'home'), status);
  });

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const ctx = await context(request, reply);
    const q = String((request.query as { q?: unknown }).q ?? '').trim().slice(0, 200);
    let results;
    let limited = false;
    if (q) {
      if (demoLimiter.take(request.ip, 5, now()).allowed) {
        results = search.search(q, { limit: 10 }).hits.map(({ unit }) => ({
          unit, parent: unit.parent_code === null ? undefined : gazetteer.byCode(unit.parent_code),
        }));
      } else {
        limited = true;
      }
    }
    return page(reply, landingPage(ctx, q, results, limited), limited ? 429 : 200);
  });

  if (options.geo) await app.register(unitPageRoutes, { gazetteer, geo: options.geo, context, page });

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

  const formRoute = { schema: { hide: true }, bodyLimit: FORM_BODY_LIMIT };

  app.post('/signup', { ...formRoute, preHandler: app.csrfProtection }, async (request, reply) => {
    const { email, password } = form(request);
    const result = await accounts.signUp(text(email), text(password), request.ip);
    if (typeof result === 'string') {
      const ctx = await context(request, reply);
      const shown = text(email).slice(0, 320);
      return page(reply, credentialsPage(ctx, 'signup', messages(ctx.lang)[result satisfies SignUpProblem], shown), result === 'tooManySignUps' ? 429 : 400);
    }
    return startSession(request, reply, result);
  });

  app.post('/signin', { ...formRoute, preHandler: app.csrfProtection }, async (request, reply) => {
    const { email, password } = form(request);
    const result = await accounts.signIn(text(email), text(password), request.ip);
    if (result === undefined || result === 'blocked') {
      const ctx = await context(request, reply);
      const t = messages(ctx.lang);
      const shown = text(email).slice(0, 320);
      return page(reply, credentialsPage(ctx, 'signin', result === 'blocked' ? t.tooManyAttempts : t.badCredentials, shown), result === 'blocked' ? 429 : 401);
    }
    return startSession(request, reply, result);
  });

  app.post('/signout', { ...formRoute, preHandler: app.csrfProtection }, async (request, reply) => {
    await accounts.endSession(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.redirect('/', 303);
  });

  /** The signed-in developer's key, or a 404 for anybody else's (never says whose it is). */
  const ownKey = async (request: FastifyRequest) => {
    const { id } = request.params as { id: string };
    // Checked before the store sees it (PostgreSQL refuses a NUL in text with an error, not an empty answer).
    if (!isKeyId(id)) throw new PageError(404, 'noSuchKey');
    const key = await store.getKey(id);
    if (!key || key.ownerId !== request.account!.id) throw new PageError(404, 'noSuchKey');
    return key;
  };
  /** The form's key name, or a 400 page saying what is wrong with it. */
  const nameOf = (request: FastifyRequest) => {
    const result = keyName(text(form(request).name));
    if (typeof result === 'string') throw new PageError(400, result);
    return result.name;
  };
  const keyAction = { schema: { hide: true }, preHandler: requireAccount };
  // The CSRF check needs the parsed form: preHandler, not onRequest.
  const keyForm = { ...formRoute, preHandler: [app.csrfProtection, requireAccount, limitKeyActions] };
  /** Shows a new secret once: POST/redirect/GET, so that reloading the page does not make or rotate a key again. */
  const reveal = (reply: FastifyReply, accountId: string, issued: { key: string; record: ApiKeyRecord }) =>
    reply.redirect(`/dashboard/keys/new/${reveals.put(accountId, issued)}`, 303);

  /** The dashboard page; `error` (with a 400) when a form was refused. */
  const showDashboard = async (request: FastifyRequest, reply: FastifyReply, error?: string) => {
    const ctx = await context(request, reply);
    const now = new Date();
    const keys = await store.listKeys({ ownerId: request.account!.id });
    const plans = new Map((await store.listPlans()).map((p) => [p.name, p]));
    const today = dayOf(now);
    // The quota is the account's: all its keys together (revoked ones included) against its plan.
    const accountId = request.account!.id;
    await access.meter.load(accountId);
    // Every key of an account is on the account's plan (the store keeps them so).
    const account = { used: access.meter.used(accountId), plan: plans.get(keys.at(-1)?.plan ?? 'free') ?? plans.get('free')! };
    const rows = await Promise.all(keys.map(async (key) => {
      const days = await store.dailyUsage(key.id, dayOf(new Date(now.getTime() - 29 * 86_400_000)), today);
      // The store is up to one flush behind: requests counted here but not yet written belong to today.
      const storedThisMonth = days.filter((d) => d.day.slice(0, 7) === today.slice(0, 7)).reduce((n, d) => n + d.count, 0);
      const unwritten = access.meter.unwrittenOf(key.id);
      /** This key's share of the account's usage this month. */
      const used = storedThisMonth + unwritten;
      // Counted here and not yet written: used since the last write, seconds ago, though the store says otherwise.
      const usedJustNow = unwritten > 0;
      if (unwritten > 0) {
        const entry = days.find((d) => d.day === today);
        if (entry) entry.count += unwritten;
        else days.push({ day: today, count: unwritten });
      }
      return {
        key, plan: plans.get(key.plan)!, used, usedJustNow,
        chart: dailyChart(lastDays(today, 30, days), ctx.lang),
        resetsOn: nextMonthStart(now).toISOString().slice(0, 10),
      };
    }));
    return page(reply, dashboardPage(ctx, rows, account, error), error ? 400 : 200);
  };
  app.get('/dashboard', keyAction, (request, reply) => showDashboard(request, reply));

  /** Makes a secret key (origins null) or a browser key for the account, within its live-key cap, and shows it once. */
  const issueKey = async (request: FastifyRequest, reply: FastifyReply, name: string | null, origins: string[] | null) => {
    const maxLiveKeysPerOwner = options.maxKeysPerAccount ?? 10;
    try {
      return reveal(reply, request.account!.id, await createKey(store, { plan: 'free', name, ownerId: request.account!.id, origins }, { maxLiveKeysPerOwner }));
    } catch (error) {
      if (!(error instanceof StoreError && error.code === 'limit')) throw error;
      const ctx = await context(request, reply);
      return page(reply, messagePage(ctx, fill(messages(ctx.lang).errorTitle, { status: 409 }, ctx.lang), fill(serviceMessages(ctx.lang).keyLimitReached, { limit: maxLiveKeysPerOwner }, ctx.lang), 'dashboard'), 409);
    }
  };

  /** The origins typed in a form (one per line, or separated by spaces or commas); a message when they are not usable. */
  const formOrigins = (request: FastifyRequest) => parseOrigins(text(form(request).origins).slice(0, 4200).split(/[\s,]+/).slice(0, 100));

  app.post('/dashboard/browser-keys', keyForm, async (request, reply) => {
    const name = nameOf(request);
    const parsed = formOrigins(request);
    if ('problem' in parsed) return showDashboard(request, reply, parsed.problem);
    return issueKey(request, reply, name, parsed.origins);
  });

  app.post('/dashboard/keys/:id/origins', keyForm, async (request, reply) => {
    const key = await ownKey(request);
    const parsed = formOrigins(request);
    if ('problem' in parsed) return showDashboard(request, reply, parsed.problem);
    await store.setKeyOrigins(key.id, parsed.origins);
    // This process applies the new origins at once; other replicas within KEY_CACHE_TTL_MS.
    access.forgetKey(key.id);
    return reply.redirect('/dashboard', 303);
  });

  app.post('/dashboard/keys', keyForm, async (request, reply) => issueKey(request, reply, nameOf(request), null));

  app.get('/dashboard/keys/new/:handle', keyAction, async (request, reply) => {
    const issued = reveals.take((request.params as { handle: string }).handle, request.account!.id);
    const ctx = await context(request, reply);
    if (!issued) {
      const t = messages(ctx.lang);
      return page(reply, messagePage(ctx, t.alreadyShownTitle, t.alreadyShown, 'dashboard'), 410);
    }
    return page(reply, keyShownPage(ctx, issued.key, issued.record));
  });

  app.post('/dashboard/keys/:id/rename', keyForm, async (request, reply) => {
    const key = await ownKey(request);
    await store.renameKey(key.id, nameOf(request));
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
    const own = await ownKey(request);
    // Already revoked (a second tab, a double submit): back to the list, as GET .../rotate answers.
    if (own.revokedAt) return reply.redirect('/dashboard', 303);
    let issued;
    try {
      issued = await rotateKey(store, own.id);
    } catch (error) {
      // Revoked between the read above and the rotation.
      if (error instanceof StoreError && error.code === 'not_found') return reply.redirect('/dashboard', 303);
      throw error;
    }
    access.forgetKey(own.id);
    return reveal(reply, request.account!.id, issued);
  });

  app.post('/dashboard/keys/:id/revoke', keyForm, async (request, reply) => {
    const { id } = await ownKey(request);
    await store.revokeKey(id, new Date().toISOString());
    // This process refuses the key at once; other replicas within KEY_CACHE_TTL_MS.
    access.forgetKey(id);
    return reply.redirect('/dashboard', 303);
  });
}
