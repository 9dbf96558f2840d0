/** The dashboard's pages: plain functions from data to HTML. */
import type { Unit } from '../gazetteer/types.js';
import type { ApiKeyRecord, Plan } from '../keys/store.js';
import { html, type Html, trusted } from './html.js';
import { serviceMessages } from './service-messages.js';
import { digits, fill, type Lang, messages, planName } from './i18n.js';

const STYLE = trusted(`
:root { --ink: #1d2433; --muted: #5b6475; --line: #d8dce5; --accent: #0b5cad; --accent-ink: #fff; --bad: #a3261b; --bg: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: var(--bg); line-height: 1.55;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Khmer", "Khmer OS", "Khmer OS System", Hanuman, Battambang, sans-serif; }
:lang(km) { line-height: 1.8; }
header, main, footer { max-width: 60rem; margin: 0 auto; padding: 1rem; }
header { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; justify-content: space-between; }
header nav { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; }
.brand { font-weight: 700; font-size: 1.2rem; color: var(--ink); text-decoration: none; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
h1 { font-size: 1.6rem; margin: .5rem 0; } h2 { font-size: 1.25rem; margin-top: 2rem; }
.card { background: #fff; border: 1px solid var(--line); border-radius: .5rem; padding: 1rem; margin: 1rem 0; }
form.inline { display: inline; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input[type=text], input[type=email], input[type=password], input[type=search], textarea { width: 100%; max-width: 28rem; padding: .6rem; font: inherit; border: 1px solid #9aa3b2; border-radius: .35rem; }
button, .button { display: inline-block; padding: .55rem 1rem; font: inherit; border-radius: .35rem; border: 1px solid var(--accent);
  background: var(--accent); color: var(--accent-ink); cursor: pointer; text-decoration: none; margin: .25rem .25rem .25rem 0; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
.error { color: var(--bad); font-weight: 600; } .muted { color: var(--muted); }
table { width: 100%; border-collapse: collapse; } th, td { text-align: left; padding: .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
@media (max-width: 40rem) { thead { display: none; } tr { display: block; border-bottom: 2px solid var(--line); } td { display: block; border: 0; padding: .2rem .5rem; }
  td::before { content: attr(data-label) ": "; font-weight: 600; } }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9rem; }
pre { background: #101826; color: #e6edf6; padding: .75rem; border-radius: .35rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
.key { font-size: 1.05rem; background: #fff8db; border: 1px dashed #b08900; padding: .5rem; word-break: break-all; }
.chart { margin: 1rem 0; } .chart svg { display: block; width: 100%; max-width: 40rem; height: auto; background: #fff; border: 1px solid var(--line); }
.chart rect { fill: var(--accent); } .chart line { stroke: var(--muted); } .chart text { font-size: 22px; fill: var(--muted); }
.chart-empty { padding: 1rem; background: #fff; border: 1px dashed var(--line); }
pre.command { font-size: .8rem; }
progress { width: 100%; max-width: 28rem; height: 1rem; }
ul.results { padding-left: 1.2rem; }
`);

export interface PageContext {
  lang: Lang;
  /** The signed-in account's email, if any. */
  email?: string;
  csrf?: string;
  /** The current path and query, to link the language switch back here. */
  path: string;
  /** CSP nonces for the page's inline style and script. */
  nonce?: { script: string; style: string };
  /** `scheme://host` of this site, for the examples. */
  origin: string;
  /** Where developers ask for a higher plan (OPERATOR_CONTACT); empty: no such line is shown. */
  contact: string;
}

/** A time from the store (ISO, UTC) as `YYYY-MM-DD HH:MM UTC`, in the page's digits. */
function when(ctx: PageContext, iso: string): Html {
  return html`<time datetime="${iso}">${digits(ctx.lang, iso.slice(0, 16).replace('T', ' '))} ${messages(ctx.lang).utc}</time>`;
}

/** A date from the store (ISO, UTC) as `YYYY-MM-DD UTC`, in the page's digits. */
function day(ctx: PageContext, iso: string): Html {
  return html`<time datetime="${iso}">${digits(ctx.lang, iso.slice(0, 10))} ${messages(ctx.lang).utc}</time>`;
}

/** Text inside single quotes for a POSIX shell. */
const shellQuote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

function switchLanguage(ctx: PageContext): string {
  const [path, query = ''] = ctx.path.split('?');
  const params = new URLSearchParams(query);
  params.set('lang', ctx.lang === 'km' ? 'en' : 'km');
  return `${path}?${params}`;
}

export function layout(ctx: PageContext, title: string, body: Html): string {
  const t = messages(ctx.lang);
  return `<!doctype html>${html`<html lang="${ctx.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · kh-address</title>
<style nonce="${ctx.nonce?.style}">${STYLE}</style>
</head>
<body>
<header>
  <a class="brand" href="/">kh-address</a>
  <nav aria-label="${t.mainNav}">
    <a href="/docs">${t.docs}</a>
    <a href="${switchLanguage(ctx)}" lang="${ctx.lang === 'km' ? 'en' : 'km'}">${t.language}</a>
    ${ctx.email
      ? html`<a href="/dashboard">${t.yourKeys}</a>
    <form class="inline" method="post" action="/signout"><input type="hidden" name="_csrf" value="${ctx.csrf}"><button class="secondary" type="submit">${t.signOut}</button></form>`
      : html`<a href="/signin">${t.signIn}</a> <a class="button" href="/signup">${t.signUp}</a>`}
  </nav>
</header>
<main>
${body}
</main>
<footer class="muted">${t.footer} <a href="/openapi.json">OpenAPI</a></footer>
</body>
</html>`}`;
}

export interface SearchResult {
  unit: Unit;
  parent?: Unit;
}

export function landingPage(ctx: PageContext, query: string, results: SearchResult[] | undefined, limited: boolean): string {
  const t = messages(ctx.lang);
  const name = (u: Unit) => (ctx.lang === 'km' ? u.name_km : u.name_latin);
  const body = html`
<h1>kh-address</h1>
<p>${t.tagline}</p>
<p class="muted">${t.facts}</p>
<section class="card" aria-labelledby="try">
  <h2 id="try">${t.tryIt}</h2>
  <form method="get" action="/" role="search">
    <label for="q">${t.searchLabel}</label>
    <input id="q" type="search" name="q" value="${query}" placeholder="${t.searchPlaceholder}" maxlength="200">
    <input type="hidden" name="lang" value="${ctx.lang}">
    <button type="submit">${t.search}</button>
  </form>
  ${limited ? html`<p class="error" role="alert">${t.tooManyAttempts}</p>` : ''}
  ${results === undefined ? '' : results.length === 0 ? html`<p>${t.noResults}</p>` : html`<ul class="results" aria-live="polite">${results.map((r) => html`
    <li><strong>${name(r.unit)}</strong> <span class="muted">${ctx.lang === 'km' ? r.unit.unit_type_km : r.unit.unit_type_en}${r.parent ? html`, ${name(r.parent)}` : ''} · ${digits(ctx.lang, r.unit.postal_code)}</span></li>`)}</ul>
  <p class="muted">${t.sameWithKey}</p>
  <pre class="command"><code>curl -G -H "x-api-key: $KH_ADDRESS_KEY" --data-urlencode ${shellQuote(`q=${query}`)} ${shellQuote(`${ctx.origin}/search`)}</code></pre>`}
</section>
<p><a class="button" href="/signup">${t.getKey}</a> <a href="/docs">${t.docs}</a></p>
<p class="muted">${t.freePlan}${ctx.contact ? ` ${t.higherPlansFromOperator}` : ''}</p>`;
  return layout(ctx, 'kh-address', body);
}

export function credentialsPage(ctx: PageContext, mode: 'signup' | 'signin', error: string | undefined, email: string): string {
  const t = messages(ctx.lang);
  const title = mode === 'signup' ? t.signUp : t.signIn;
  const body = html`
<h1>${title}</h1>
<form class="card" method="post" action="/${mode}">
  ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
  <input type="hidden" name="_csrf" value="${ctx.csrf}">
  <label for="email">${t.email}</label>
  <input id="email" type="email" name="email" value="${email}" autocomplete="email" required maxlength="320">
  <label for="password">${t.password}</label>
  <input id="password" type="password" name="password" autocomplete="${mode === 'signup' ? 'new-password' : 'current-password'}" required minlength="${mode === 'signup' ? 10 : 1}" maxlength="200" ${mode === 'signup' ? html`aria-describedby="password-hint"` : ''}>
  ${mode === 'signup' ? html`<p id="password-hint" class="muted">${t.passwordHint}</p>` : ''}
  <p><button type="submit">${title}</button></p>
</form>
<p>${mode === 'signup' ? html`${t.haveAccount} <a href="/signin">${t.signIn}</a>` : html`${t.noAccount} <a href="/signup">${t.signUp}</a>`}</p>`;
  return layout(ctx, title, body);
}

export interface KeyRow {
  key: ApiKeyRecord;
  plan: Plan;
  used: number;
  /** Requests counted here but not yet in the store: the key was used since the last write (seconds ago). */
  usedJustNow: boolean;
  chart: Html;
  resetsOn: string;
}

/**
 * `account`: the account's usage this month, all its keys together, against its plan (the quota is the account's);
 * `error`: why a form of this page was refused.
 */
export function dashboardPage(ctx: PageContext, rows: KeyRow[], account?: { used: number; plan: Plan }, error?: string): string {
  const t = messages(ctx.lang);
  const s = serviceMessages(ctx.lang);
  const live = rows.filter((r) => !r.key.revokedAt);
  const body = html`
<h1>${t.yourKeys}</h1>
<section class="card" aria-labelledby="key-kinds">
  <h2 id="key-kinds">${t.keyKinds}</h2>
  <p><strong>${t.secretKeyTitle}</strong> (<code>khk_…</code>): ${t.secretKeyText}</p>
  <p><strong>${t.browserKeyTitle}</strong> (<code>khp_…</code>): ${t.browserKeyText}</p>
</section>
<form class="card" method="post" action="/dashboard/keys">
  <input type="hidden" name="_csrf" value="${ctx.csrf}">
  <label for="name">${t.keyName}</label>
  <input id="name" type="text" name="name" maxlength="80">
  <p><button type="submit">${t.createKey}</button></p>
</form>
<form class="card" method="post" action="/dashboard/browser-keys">
  <input type="hidden" name="_csrf" value="${ctx.csrf}">
  <label for="browser-name">${t.browserKeyName}</label>
  <input id="browser-name" type="text" name="name" maxlength="80">
  <label for="browser-origins">${t.origins}</label>
  <textarea id="browser-origins" name="origins" rows="3" required maxlength="4200" aria-describedby="origins-hint"></textarea>
  <p id="origins-hint" class="muted">${t.originsHint} <code>https://shop.example.com</code>, <code>http://localhost:5173</code></p>
  ${error ? html`<p class="error" role="alert">${ctx.lang === 'km' ? html`${t.originsRefused} <code>${error}</code>` : error}</p>` : ''}
  <p><button type="submit">${t.createBrowserKey}</button></p>
</form>
${rows.length === 0 ? html`<p>${t.noKeys}</p>` : html`
<table>
  <thead><tr><th>${t.name}</th><th>${t.prefix}</th><th>${t.kind}</th><th>${t.plan}</th><th>${t.created}</th><th>${t.lastUsed}</th><th>${t.actions}</th></tr></thead>
  <tbody>${rows.map(({ key, usedJustNow }) => html`
    <tr data-key-id="${key.id}">
      <td data-label="${t.name}">
        ${key.revokedAt ? key.name ?? '' : html`<form class="inline" method="post" action="/dashboard/keys/${key.id}/rename">
          <input type="hidden" name="_csrf" value="${ctx.csrf}">
          <input type="text" name="name" value="${key.name ?? ''}" aria-label="${t.name}" maxlength="80">
          <button class="secondary" type="submit">${t.rename}</button></form>`}
      </td>
      <td data-label="${t.prefix}"><code>${key.prefix}…</code>${key.revokedAt ? html` <strong>${t.revoked}</strong>` : ''}</td>
      <td data-label="${t.kind}">${key.allowedOrigins === null ? t.secretKind : html`${t.browserKind}
        ${key.revokedAt ? html`<br><span class="muted">${key.allowedOrigins.join(' ')}</span>` : html`<form method="post" action="/dashboard/keys/${key.id}/origins">
          <input type="hidden" name="_csrf" value="${ctx.csrf}">
          <textarea name="origins" rows="2" required maxlength="4200" aria-label="${t.origins}">${key.allowedOrigins.join('\n')}</textarea>
          <button class="secondary" type="submit">${t.saveOrigins}</button></form>`}`}</td>
      <td data-label="${t.plan}">${planName(ctx.lang, key.plan)}</td>
      <td data-label="${t.created}">${day(ctx, key.createdAt)}</td>
      <td data-label="${t.lastUsed}">${usedJustNow ? t.lastFewSeconds : key.lastUsedAt ? when(ctx, key.lastUsedAt) : t.never}</td>
      <td data-label="${t.actions}">${key.revokedAt ? '' : html`<a href="/dashboard/keys/${key.id}/rotate">${t.rotate}</a> · <a href="/dashboard/keys/${key.id}/revoke">${t.revoke}</a>`}</td>
    </tr>`)}</tbody>
</table>`}
${account ? html`
<section class="card" aria-labelledby="usage-account">
  <h2 id="usage-account">${t.usage}: ${s.accountUsage}</h2>
  <p class="usage-count account-usage">${fill(t.usedOf, { used: account.used, quota: account.plan.monthlyQuota }, ctx.lang)}</p>
  <progress max="${account.plan.monthlyQuota}" value="${Math.min(account.used, account.plan.monthlyQuota)}" aria-label="${t.usage}"></progress>
  ${rows[0] ? html`<p class="muted">${fill(t.resets, { date: digits(ctx.lang, rows[0].resetsOn) })}</p>` : ''}
</section>` : ''}
${live.map((r) => html`
<section class="card" aria-labelledby="usage-${r.key.id}">
  <h2 id="usage-${r.key.id}">${t.usage}: <code>${r.key.prefix}…</code> ${r.key.name ?? ''}</h2>
  <p class="usage-count key-share">${account ? fill(s.keyShare, { used: r.used }, ctx.lang) : fill(t.usedOf, { used: r.used, quota: r.plan.monthlyQuota }, ctx.lang)}</p>
  ${account ? '' : html`<progress max="${r.plan.monthlyQuota}" value="${Math.min(r.used, r.plan.monthlyQuota)}" aria-label="${t.usage}"></progress>
  <p class="muted">${fill(t.resets, { date: digits(ctx.lang, r.resetsOn) })}</p>`}
  ${r.chart}
</section>`)}
${ctx.contact ? html`<p>${t.higherPlan} ${contact(ctx.contact)}</p>` : ''}`;
  return layout(ctx, t.yourKeys, body);
}

/** OPERATOR_CONTACT as a link: an email address as mailto:, a web address as is, anything else as text. */
function contact(value: string): Html | string {
  if (/^[^\s@]+@[^\s@]+$/.test(value)) return html`<a href="mailto:${value}">${value}</a>`;
  if (/^https?:\/\/\S+$/.test(value)) return html`<a href="${value}">${value}</a>`;
  return value;
}

export function keyShownPage(ctx: PageContext, key: string, record: ApiKeyRecord): string {
  const t = messages(ctx.lang);
  const body = html`
<h1>${t.newKeyTitle}</h1>
<div class="card">
  <p class="error">${record.allowedOrigins ? t.newBrowserKeyWarning : t.newKeyWarning}</p>
  <p class="key"><code id="new-key">${key}</code></p>
  <button type="button" id="copy" data-copied="${t.copied}">${t.copy}</button>
  ${record.allowedOrigins ? html`<p>${t.origins}: <code>${record.allowedOrigins.join(' ')}</code></p>
  <p>${t.usePicker}</p>
  <pre>&lt;script type="module" src="${ctx.origin}/widget/kh-address-picker.js"&gt;&lt;/script&gt;
&lt;kh-address-picker api-base="${ctx.origin}" api-key="${key}" lang="${ctx.lang}" required&gt;&lt;/kh-address-picker&gt;</pre>` : html`<p>${t.tryWithCurl}</p>
  <pre>export KH_ADDRESS_KEY=${key}
curl -H "x-api-key: $KH_ADDRESS_KEY" "${ctx.origin}/search?q=Battambang"</pre>`}
  <p class="muted"><code>${record.id}</code> · ${planName(ctx.lang, record.plan)}</p>
</div>
<p><a href="/dashboard">${t.back}</a></p>
<script nonce="${ctx.nonce?.script}">
document.getElementById('copy').addEventListener('click', async (event) => {
  await navigator.clipboard.writeText(document.getElementById('new-key').textContent);
  event.target.textContent = event.target.dataset.copied;
});
</script>`;
  return layout(ctx, t.newKeyTitle, body);
}

export function confirmPage(ctx: PageContext, action: 'revoke' | 'rotate', key: ApiKeyRecord): string {
  const t = messages(ctx.lang);
  const body = html`
<h1>${action === 'revoke' ? t.revoke : t.rotate} <code>${key.prefix}…</code></h1>
<form class="card" method="post" action="/dashboard/keys/${key.id}/${action}">
  <input type="hidden" name="_csrf" value="${ctx.csrf}">
  <p>${action === 'revoke' ? t.confirmRevoke : t.confirmRotate}</p>
  <button class="${action === 'revoke' ? 'danger' : ''}" type="submit">${action === 'revoke' ? t.revoke : t.rotate}</button>
  <a href="/dashboard">${t.cancel}</a>
</form>`;
  return layout(ctx, action === 'revoke' ? t.revoke : t.rotate, body);
}

export function messagePage(ctx: PageContext, title: string, text: string, back: 'home' | 'dashboard' = 'home'): string {
  const link = back === 'dashboard' ? html`<a href="/dashboard">${messages(ctx.lang).back}</a>` : html`<a href="/">kh-address</a>`;
  return layout(ctx, title, html`<h1>${title}</h1><p>${text}</p><p>${link}</p>`);
}
