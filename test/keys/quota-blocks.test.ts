/**
 * Two replicas (two stores on one database, each with its own meter and gate, as two processes have) admitting a
 * burst for one key at the same moment: without blocks each admitted the whole quota before hearing of the other
 * (2x the quota); with blocks (a process admits at most a tenth of what is left between two writes) the overrun is
 * bounded by design. No timing involved: every request of the burst is decided before any write could finish.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { AccessControl } from '../../src/keys/access-control.js';
import { createKey } from '../../src/keys/issue-keys.js';
import { openStore } from '../../src/keys/open-store.js';
import { monthOf } from '../../src/keys/periods.js';
import type { KeyStore } from '../../src/keys/store.js';
import { UsageMeter } from '../../src/keys/usage-meter.js';
import { STORE_KINDS, type ThrowawayDatabase } from './stores.js';

const QUOTA = 300;
const REPLICAS = 3;
const BURST = 400; // per replica

for (const { kind, create } of STORE_KINDS) {
  describe(`quota blocks across ${REPLICAS} replicas (${kind} store)`, () => {
    let database: ThrowawayDatabase;
    const stores: KeyStore[] = [];
    const meters: UsageMeter[] = [];
    after(async () => {
      for (const meter of meters) await meter.stop().catch(() => undefined);
      for (const store of stores) await store.close();
      await database.drop();
    });

    it(`a simultaneous burst of ${REPLICAS} x ${BURST} on a quota of ${QUOTA} overruns it by less than ${REPLICAS - 1} blocks`, async (t) => {
      database = await create();
      // A generous timeout: a write that timed out on a loaded machine would count as an outage (the bound suspended).
      for (let i = 0; i < REPLICAS; i++) stores.push(await openStore(database.url, { timeoutMs: 30_000 }));
      await stores[0]!.createPlan({ name: 'q300', monthlyQuota: QUOTA, perSecond: 1_000_000 });
      const { key, record } = await createKey(stores[0]!, { plan: 'q300' });
      const gates = stores.map((store) => {
        const meter = new UsageMeter(store, { flushIntervalMs: 600_000 });
        meters.push(meter);
        return new AccessControl(store, meter, { keyCacheTtlMs: 600_000 });
      });
      for (const gate of gates) assert.equal((await gate.admit(key)).outcome, 'admitted'); // cached and loaded everywhere
      const outcomes = await Promise.all(Array.from({ length: BURST * REPLICAS }, (_, i) => gates[i % REPLICAS]!.admit(key)));
      const admitted = outcomes.filter((o) => o.outcome === 'admitted').length + REPLICAS;
      for (const meter of meters) await meter.stop(); // waits for a write under way, then writes the rest
      const stored = (await stores[0]!.monthlyUsage([record.id], monthOf(new Date()))).get(record.id);
      // The design bound: each other replica may be one block (a tenth of the quota at most) ahead when the quota ends.
      const bound = QUOTA + (REPLICAS - 1) * Math.ceil(QUOTA / 10);
      t.diagnostic(`${kind}: ${admitted} admitted of ${BURST * REPLICAS + REPLICAS} (quota ${QUOTA}, design bound ${bound}); stored ${stored}`);
      assert.equal(stored, admitted, 'every admitted request counted');
      assert.ok(admitted >= QUOTA, `only ${admitted} admitted`);
      assert.ok(admitted <= bound, `${admitted} admitted, more than the bound ${bound}`);
    });
  });
}
