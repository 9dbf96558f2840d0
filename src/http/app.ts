import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Gazetteer } from '../gazetteer/gazetteer.js';

export interface AppOptions {
  gazetteer: Gazetteer;
  /** Passed to Fastify; tests leave it off, the server sets a pino logger. */
  logger?: FastifyServerOptions['logger'];
}

/** Builds the HTTP app without listening, so tests can `inject()` requests. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false });
  const { gazetteer } = options;

  app.get('/health', async () => ({ status: 'ok', datasetVersion: gazetteer.version }));

  return app;
}
