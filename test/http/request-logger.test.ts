/** Request loggers made on first use: lines still carry the request's correlation id, and a quiet request makes none. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { deferredChildLogger } from '../../src/http/request-logger.js';

describe('deferred request logger', async () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  let children = 0;
  // Counts the real children made (the parent's own child(), called through).
  const counting: FastifyBaseLogger = Object.create(logger, {
    child: { value: (...args: Parameters<typeof logger.child>) => (children++, logger.child(...args)) },
  }) as FastifyBaseLogger;

  const app = Fastify({ loggerInstance: logger, disableRequestLogging: true,
    childLoggerFactory: (_logger, bindings, options) => deferredChildLogger(counting, bindings, options) });
  app.get('/quiet', async (request) => ({ level: request.log.level }));
  app.get('/loud', async (request) => {
    request.log.info({ extra: 1 }, 'first');
    request.log.warn('second');
    return {};
  });
  after(() => app.close());

  it('makes no child logger for a request that logs nothing, and reports the level', async () => {
    const response = await app.inject('/quiet');
    assert.deepEqual(response.json(), { level: 'info' });
    assert.equal(children, 0);
  });

  it('binds the request id to every line of a request that logs, with one child', async () => {
    const response = await app.inject({ url: '/loud', headers: {} });
    assert.equal(response.statusCode, 200);
    assert.equal(children, 1);
    const logged = lines.filter((line) => line.msg === 'first' || line.msg === 'second');
    assert.equal(logged.length, 2);
    for (const line of logged) assert.equal(line.reqId, 'req-2');
    assert.equal(logged[0]!.extra, 1);
    assert.equal(logged[1]!.level, 40);
  });
});
