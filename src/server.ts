/** Starts kh-address: configuration from the environment, the dataset and search index, the key store, then listen. */
import { ConfigError, loadConfig } from './config.js';
import { loadGazetteer } from './gazetteer/load.js';
import { loadGeography } from './geo/geography.js';
import { resolverFor, resolverTablesFrom } from './address/resolve.js';
import { buildApp } from './http/app.js';
import { compilePending } from './http/schema-compilers.js';
import { ensureDemoKey } from './keys/demo-key.js';
import { createDevelopmentKey, DEVELOPMENT_PLAN, openKeys } from './keys/keys.js';
import { StoreOpenError } from './keys/open-store.js';
import { loadSearchIndex } from './search/load.js';
import { pinTickShape } from './lib/tick-shape.js';

function printDevelopmentKey(key: string, port: number): void {
  const line = '='.repeat(78);
  console.log([
    line,
    ' DEVELOPMENT API KEY (printed once, at first start, because the key store had no key)',
    '',
    `   ${key}`,
    '',
    ` It is on the development plan (${DEVELOPMENT_PLAN.monthlyQuota.toLocaleString('en')} requests a month, ${DEVELOPMENT_PLAN.perSecond} a second), for exploring. Try it:`,
    `   export KH_ADDRESS_KEY=${key} BASE=http://127.0.0.1:${port}`,
    '   curl -H "x-api-key: $KH_ADDRESS_KEY" "$BASE/provinces"',
    ' Keep it secret. Set DEV_KEY=off to never create one (production).',
    line,
  ].join('\n'));
}

async function main(): Promise<void> {
  // Before start-up's full garbage collections (loading the data makes several): see lib/tick-shape.ts.
  pinTickShape();
  const config = loadConfig();
  const gazetteer = loadGazetteer();
  const loadedAt = performance.now();
  const { index: search, tables: searchTables } = loadSearchIndex(gazetteer);
  const indexedAt = performance.now();
  const geo = loadGeography({ boundaryToleranceM: config.geoBoundaryToleranceM, inlandMaxM: config.geoInlandMaxM, outsideMaxM: config.geoOutsideMaxM });
  const geoAt = performance.now();
  const resolver = resolverFor(gazetteer, search);
  const resolverAt = performance.now();
  let logError: (error: unknown) => void = () => undefined;
  const keys = await openKeys({ ...config, onError: (error) => logError(error) });
  let demoKey: string | undefined;
  const app = await buildApp({
    widget: { demoKey: () => demoKey },
    gazetteer, search, resolver, geo, access: keys.access, store: keys.store, trustProxy: config.trustProxy,
    dashboard: { operatorContact: config.operatorContact, maxKeysPerAccount: config.maxKeysPerAccount },
    metricsToken: config.metricsToken,
    maxEventLoopDelayMs: config.maxEventLoopDelayMs,
    logRequests: config.logRequests,
    logger: {
    level: config.logLevel,
    // Keys are secrets: never in a log line.
    redact: ['req.headers["x-api-key"]', 'req.headers.cookie', 'req.headers.authorization'],
    },
  });
  logError = (error) => app.log.error({ err: error }, 'usage flush failed; counts kept for the next attempt');
  app.addHook('onClose', () => keys.close());
  app.log.info({ datasetVersion: gazetteer.version, units: gazetteer.units.length, loadedInMs: Math.round(loadedAt) }, 'gazetteer loaded');
  if (searchTables.from === 'snapshot') app.log.info({ loadMs: Math.round(indexedAt - loadedAt) }, 'search index loaded from the build\'s snapshot');
  else app.log.info({ buildMs: Math.round(indexedAt - loadedAt), snapshot: searchTables.snapshot }, 'search index built at start: no usable snapshot');
  app.log.info({ geometry: geo.version, loadMs: Math.round(geoAt - indexedAt) }, 'geometry loaded and indexed');
  const resolverTables = resolverTablesFrom(resolver);
  if (resolverTables?.from === 'snapshot') app.log.info({ loadMs: Math.round(resolverAt - geoAt) }, 'address resolver\'s tables loaded from the build\'s snapshot');
  else app.log.info({ buildMs: Math.round(resolverAt - geoAt), snapshot: resolverTables?.snapshot }, 'address resolver\'s tables made at start: no usable snapshot');
  app.log.info({ store: keys.store.kind }, 'key store ready');

  // SIGTERM/SIGINT: stop accepting, let in-flight requests finish (new ones get 503), write the last usage, close
  // the store, exit; or exit with code 1 after SHUTDOWN_TIMEOUT_MS whatever is left.
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      // Whatever was counted and not written is lost now: say how much, for the operator's records.
      app.log.error({ timeoutMs: config.shutdownTimeoutMs, unwrittenRequests: keys.meter.unflushed },
        `shutdown took too long; exiting with ${keys.meter.unflushed} counted requests not written to the key store (lost)`);
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    try {
      await app.close();
    } catch (error) {
      app.log.error({ err: error, unwrittenRequests: keys.meter.unflushed },
        `shutdown did not complete cleanly; ${keys.meter.unflushed} counted requests not written to the key store (lost)`);
      process.exitCode = 1;
      // Connections to a store that stopped answering may never close: nothing is left to do, so do not wait for them.
      setImmediate(() => process.exit());
    }
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  await app.listen({ port: config.port, host: config.host });
  // Response and request schemas compile on first use (http/schema-compilers.ts: about 150 ms of CPU less before the
  // server answers); the others now, one per turn of the event loop, so that requests are served in between.
  const compileRest = () => {
    try {
      if (compilePending(1) > 0) setImmediate(compileRest);
    } catch (error) {
      app.log.error({ err: error }, 'a response or request schema does not compile; its route will fail');
    }
  };
  setImmediate(compileRest);
  if (config.devKey) {
    const key = await createDevelopmentKey(keys.store);
    const address = app.server.address();
    if (key) printDevelopmentKey(key, typeof address === 'object' && address ? address.port : config.port);
  }
  if (config.demoKey) {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const origins = [...new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`, ...config.publicOrigins])];
    try {
      demoKey = (await ensureDemoKey(keys.store, origins)).key;
      app.log.info({ origins }, 'widget demo key ready: /widget/demo');
    } catch (error) {
      // The demo is a convenience: without its key the page says so, and the service runs on.
      app.log.warn({ err: error }, 'widget demo key not made; /widget/demo will say so');
    }
  }
}

main().catch((error: unknown) => {
  // A mistake the operator can fix is one clear line (no stack trace); anything else is a bug, shown whole.
  console.error(error instanceof ConfigError ? `configuration: ${error.message}` : error instanceof StoreOpenError ? `key store: ${error.message}` : error);
  process.exitCode = 1;
});
