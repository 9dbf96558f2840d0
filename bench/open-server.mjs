// kh-address from the production build (dist/) but without the API-key gate (no auth, no metering): the benchmark
// compares it with the real server to measure what the gate costs. The geometry is loaded as in the service, so its
// records carry the same `location` and its answers are the same bytes but for the RateLimit headers.
// Never a way to run the service.
import process from 'node:process';
import { loadGazetteer } from '../dist/gazetteer/load.js';
import { loadGeography } from '../dist/geo/geography.js';
import { buildApp } from '../dist/http/app.js';
import { pinTickShape } from '../dist/lib/tick-shape.js';
import { loadSearchIndex } from '../dist/search/load.js';

// As the service does first (src/server.ts; see src/lib/tick-shape.ts).
pinTickShape();
const gazetteer = loadGazetteer();
// MAX_EVENT_LOOP_DELAY_MS as the service reads it (bench:profile --callgrind raises it: valgrind is 50 times slower).
const app = await buildApp({ gazetteer, search: loadSearchIndex(gazetteer).index, geo: loadGeography(), logger: { level: 'info' },
  maxEventLoopDelayMs: Number(process.env.MAX_EVENT_LOOP_DELAY_MS ?? 1000) });
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close());
