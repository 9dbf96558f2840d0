/** Starts kh-address: configuration from the environment, the dataset loaded once, then listen. */
import { ConfigError, loadConfig } from './config.js';
import { loadGazetteer } from './gazetteer/load.js';
import { buildApp } from './http/app.js';
import { loadSearchIndex } from './search/load.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const gazetteer = loadGazetteer();
  const loadedAt = performance.now();
  const search = loadSearchIndex(gazetteer);
  const indexedAt = performance.now();
  const app = await buildApp({ gazetteer, search, logger: { level: config.logLevel } });
  app.log.info({ datasetVersion: gazetteer.version, units: gazetteer.units.length, loadedInMs: Math.round(loadedAt) },
    'gazetteer loaded');
  app.log.info({ buildMs: Math.round(indexedAt - loadedAt) }, 'search index built');
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `configuration: ${error.message}` : error);
  process.exitCode = 1;
});
