/**
 * Prometheus metrics (prom-client), at GET /metrics behind a bearer token (METRICS_TOKEN; without one there is no
 * route and nothing is collected). Requests by route and status, latency, refusals by reason, the usage flush and store errors, and
 * Node's process metrics. Kept cheap: one counter and one histogram update per request, labels from the route
 * pattern (never the raw URL, which would make unbounded label values).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { UsageMeter } from '../../keys/usage-meter.js';
import { sendError } from '../errors.js';

export interface Metrics {
  registry?: Registry;
  /** Counts a refusal by the API-key gate or the load shedder. */
  refused(reason: string): void;
}

/**
 * Metrics cost a hook on every request: without a token nobody can read them, so none are collected (and
 * prom-client, about 50 ms of start-up, is not even loaded).
 */
export async function registerMetrics(app: FastifyInstance, { token, meter }: { token: string; meter?: UsageMeter }): Promise<Metrics> {
  if (!token) return { refused: () => undefined };
  const { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } = await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'http_requests_total', help: 'Requests answered, by route pattern, method and status.', labelNames: ['route', 'method', 'status'] as const, registers: [registry] });
  const latency = new Histogram({
    name: 'http_request_duration_seconds', help: 'Time from request to response, by route pattern.', labelNames: ['route'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registers: [registry],
  });
  const refusals = new Counter({ name: 'api_refusals_total', help: 'Requests refused before any work: missing or invalid key, quota, rate, overload.', labelNames: ['reason'] as const, registers: [registry] });
  if (meter) {
    new Gauge({ name: 'usage_flush_lag_seconds', help: 'Seconds since usage was last written to the store.', registers: [registry],
      collect() { this.set(meter.stats.lastSuccessAt ? (Date.now() - meter.stats.lastSuccessAt) / 1000 : 0); } });
    new Gauge({ name: 'usage_flush_last_duration_seconds', help: 'Duration of the last usage write.', registers: [registry],
      collect() { this.set(meter.stats.lastFlushMs / 1000); } });
    new Gauge({ name: 'usage_unflushed_requests', help: 'Requests counted and not yet written (lost if the process dies now).', registers: [registry],
      collect() { this.set(meter.unflushed); } });
    new Gauge({ name: 'store_errors_total', help: 'Failed usage writes to the key store since start.', registers: [registry],
      collect() { this.set(meter.stats.failures); } });
  }

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ route, method: request.method, status: reply.statusCode });
    latency.observe({ route }, reply.elapsedTime / 1000);
    done();
  });

  const expected = Buffer.from(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return sendError(request, reply, { statusCode: 401, code: 'invalid_api_key', message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.' });
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  return { registry, refused: (reason) => refusals.inc({ reason }) };
}
