// A reference for the benchmark: bare Fastify answering one route (the same method and path as kh-address's, so it
// receives the very same requests) with exactly the status, headers and body kh-address gave, as constants (captured
// by bench/http.ts or bench/profile.ts into the file RESPONSES names; bodies in base64). Its req/s is the ceiling for
// that exchange on this machine, framework and socket writes included, no application work. Same Fastify and logger
// settings as kh-address (pino at info, no request logging).
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import process from 'node:process';
import Fastify, { LogController } from 'fastify';

const responses = JSON.parse(readFileSync(process.env.RESPONSES, 'utf8'));
const app = Fastify({ logger: { level: 'info' }, logController: new LogController({ disableRequestLogging: true }) });
for (const { method, url, status, headers, body } of responses) {
  const bytes = Buffer.from(body, 'base64');
  app.route({
    method,
    url,
    handler: (_request, reply) => {
      reply.code(status).headers(headers);
      reply.send(status === 304 ? undefined : bytes);
    },
  });
}
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
// SIGTERM: close and let the process end by itself (so that `node --cpu-prof` writes its profile).
process.once('SIGTERM', () => void app.close());
