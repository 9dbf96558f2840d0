/** Starts kh-address: configuration from the environment, the dataset loaded once, then listen. */
import { ConfigError, loadConfig } from './config.js';
import { loadGazetteer } from './gazetteer/load.js';
import { buildApp } from './http/app.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const gazetteer = loadGazetteer();
  const app = await buildApp({ gazetteer, logger: { level: config.logLevel } });
  app.log.info({ datasetVersion: gazetteer.version, units: gazetteer.units.length, loadedInMs: Math.round(performance.now()) },
    'gazetteer loaded');
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
