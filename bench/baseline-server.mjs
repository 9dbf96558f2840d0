// The benchmark's baseline: Fastify hello-world with the same Fastify version and logger settings as kh-address
// (pino at info, no per-request logging). What the framework alone can do on this machine. Plain JS, run by node.
import process from 'node:process';
import Fastify, { LogController } from 'fastify';

const app = Fastify({ logger: { level: 'info' }, logController: new LogController({ disableRequestLogging: true }) });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
// SIGTERM: close and let the process end by itself (so that `node --cpu-prof` writes its profile).
process.once('SIGTERM', () => void app.close());
