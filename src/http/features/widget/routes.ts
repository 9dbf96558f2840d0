/**
 * The picker served by the service: /widget/kh-address-picker.<version>-<hash>.js (immutable: cache it for a year),
 * /widget/kh-address-picker.js (a short alias, revalidated with its ETag), both gzip or brotli by Accept-Encoding;
 * and its demo page, /widget/demo, which works on a fresh start with the demo browser key made at start.
 * Public: no API key (the picker's own requests carry the page's browser key).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '../../schemas/type.js';
import { notFound } from '../../errors.js';
import { bodyOf, chooseEncoding, etagOf, matchesFile, type Precompressed, precompress } from '../../precompressed.js';
import { demoPage, type Lang, submittedPage } from './page.js';

const PICKER_URL = new URL('../../../../packages/picker/kh-address-picker.js', import.meta.url);
const PICKER_PACKAGE_URL = new URL('../../../../packages/picker/package.json', import.meta.url);

/** The picker's source and its versioned file name. */
export function pickerFile(): { source: string; version: string; name: string } {
  const source = readFileSync(PICKER_URL, 'utf8');
  const { version } = JSON.parse(readFileSync(PICKER_PACKAGE_URL, 'utf8')) as { version: string };
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 10);
  return { source, version, name: `kh-address-picker.${version}-${hash}.js` };
}

const LangQuery = Type.Object({ lang: Type.Optional(Type.Enum(['en', 'km'], { default: 'en' })) }, { additionalProperties: false });
const ALIAS_CACHE = 'public, max-age=300';
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

export async function widgetRoutes(app: FastifyInstance, { demoKey }: { demoKey: () => string | undefined }): Promise<void> {
  const { source, name } = pickerFile();
  // Compressed on its first request, not at start (brotli at quality 9 cost about 25 ms of CPU there); then kept.
  let prepared: Promise<Precompressed> | undefined;
  const scriptFile = () => {
    if (!prepared) {
      prepared = precompress([source]);
      prepared.catch(() => { prepared = undefined; });
    }
    return prepared;
  };
  const scriptPath = `/widget/${name}`;

  const sendScript = async (request: FastifyRequest, reply: FastifyReply, cacheControl: string) => {
    const file = await scriptFile();
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    reply.header('vary', 'Accept-Encoding').header('cache-control', cacheControl).header('etag', etagOf(file, encoding))
      .header('cross-origin-resource-policy', 'cross-origin');
    if (matchesFile(request.headers['if-none-match'], file)) return reply.code(304).send();
    reply.type('text/javascript; charset=utf-8');
    if (encoding === 'identity') reply.header('content-length', String(file.length));
    else reply.header('content-encoding', encoding);
    return reply.send(bodyOf(file, encoding));
  };

  // Static files, not API operations: left out of the OpenAPI document (the README documents them).
  app.get('/widget/kh-address-picker.js', { schema: { hide: true } }, (request, reply) => sendScript(request, reply, ALIAS_CACHE));
  app.get('/widget/:file', { schema: { hide: true } }, (request, reply) => {
    if ((request.params as { file: string }).file !== name) throw notFound(`No such file; the current picker is ${scriptPath}.`);
    return sendScript(request, reply, IMMUTABLE_CACHE);
  });

  /** HTML with its own strict CSP: only this origin's scripts plus the page's nonced ones, requests to this origin only. */
  const page = (reply: FastifyReply, nonce: string, body: string) => reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', `default-src 'self'; script-src 'self' 'nonce-${nonce}'; style-src 'self' 'nonce-${nonce}'; `
      + "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    .header('x-content-type-options', 'nosniff')
    .send(body);

  app.get('/widget/demo', { schema: { hide: true, querystring: LangQuery } }, (request, reply) => {
    const lang = ((request.query as { lang?: Lang }).lang ?? 'en');
    const nonce = randomBytes(16).toString('base64');
    return page(reply, nonce, demoPage({ lang, nonce, scriptPath, origin: `${request.protocol}://${request.host}`, demoKey: demoKey() }));
  });

  app.get('/widget/demo/submitted', { schema: { hide: true } }, (request, reply) => {
    const query = request.query as Record<string, string | string[]>;
    const lang: Lang = query.lang === 'km' ? 'km' : 'en';
    // What a form sent: at most 20 fields, each cut to 200 characters, escaped by the page.
    const fields = Object.entries(query).filter(([field]) => field !== 'lang').slice(0, 20)
      .map(([field, value]): [string, string] => [field.slice(0, 100), String(Array.isArray(value) ? value.join(', ') : value).slice(0, 200)]);
    const nonce = randomBytes(16).toString('base64');
    return page(reply, nonce, submittedPage(lang, nonce, fields));
  });
}
