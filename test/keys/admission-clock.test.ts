/**
 * The key gate reads the time once per admission and passes it on (each Date.now() is a call into the runtime; a
 * request made five), without mixing clocks: a meter given a clock of its own still counts by that clock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AccessControl, type Admission } from '../../src/keys/access-control.js';
import { createKey } from '../../src/keys/issue-keys.js';
import type { KeyStore } from '../../src/keys/store.js';
import { UsageMeter } from '../../src/keys/usage-meter.js';
import { freshStore } from './stores.js';

describe('admission and the clock', () => {
  let store: KeyStore;
  let close: () => Promise<void>;
  const meters: UsageMeter[] = [];
  before(async () => {
    ({ store, close } = await freshStore('sqlite'));
    await store.createPlan({ name: 'roomy', monthlyQuota: 1_000_000, perSecond: 10_000 });
  });
  after(async () => {
    for (const meter of meters) await meter.stop();
    await close();
  });

  /** A key admitted once (so that it is cached and its usage loaded: later admissions are synchronous). */
  async function warmGate(meterNow?: () => Date): Promise<{ access: AccessControl; meter: UsageMeter; key: string; id: string }> {
    const meter = new UsageMeter(store, { flushIntervalMs: 60_000, now: meterNow });
    meters.push(meter);
    const access = new AccessControl(store, meter, { keyCacheTtlMs: 600_000 });
    const { key, record } = await createKey(store, { plan: 'roomy' });
    assert.equal((await access.admit(key)).outcome, 'admitted');
    return { access, meter, key, id: record.id };
  }

  it('admits a cached key with at most two reads of the clock (it made five)', async () => {
    const { access, meter, key } = await warmGate();
    const real = Date.now;
    let reads = 0;
    Date.now = () => {
      reads++;
      return real();
    };
    let admission: Admission | Promise<Admission>;
    try {
      admission = access.admit(key);
    } finally {
      Date.now = real;
    }
    assert.ok(!(admission instanceof Promise), 'a cached key is admitted synchronously');
    assert.equal(admission.outcome, 'admitted');
    assert.equal(meter.unflushed, 2, 'both admissions counted');
    // One read in admit(); the meter's early-flush check reads the time of failures (a real clock) once more.
    assert.ok(reads <= 2, `${reads} reads of Date.now() for one admission`);
  });

  it('counts by the meter\'s own clock when it has one, and limits by the real time', async () => {
    const meterNow = () => new Date('2031-01-15T10:00:00Z');
    const { access, meter, key, id } = await warmGate(meterNow);
    const admission = await access.admit(key);
    assert.equal(admission.outcome, 'admitted');
    assert.equal(meter.period().month, '2031-01');
    assert.equal(meter.used(id, meter.period()), 2, 'both admissions counted in the meter\'s month');
    assert.equal(meter.unwrittenOf(id, { month: '2031-01' }), 2);
    const realMonth = new Date().toISOString().slice(0, 7);
    assert.equal(meter.unwrittenOf(id, { month: realMonth }), 0, 'nothing counted in the real month');
  });
});
