// A reference for the benchmark: Fastify answering GET /<n> with exactly the status, headers and body kh-address
// gave for static scenario n (captured by bench/http.ts into the file RESPONSES names; bodies in base64), as
// constants. Its req/s is the ceiling for responses of that size on this machine, framework and socket writes
// included, no application work. Same Fastify and logger settings as kh-address (pino at info, no request logging).
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import process from 'node:process';
import Fastify, { LogController } from 'fastify';

const responses = JSON.parse(readFileSync(process.env.RESPONSES, 'utf8'));
const app = Fastify({ logger: { level: 'info' }, logController: new LogController({ disableRequestLogging: true }) });
responses.forEach(({ status, headers, body }, n) => {
  const bytes = Buffer.from(body, 'base64');
  app.get(`/${n}`, (_request, reply) => {
    reply.code(status).headers(headers);
    reply.send(status === 304 ? undefined : bytes);
  });
});
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
