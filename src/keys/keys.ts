/** The key machinery of one server process: the store, the usage meter and the admission gate, opened and closed together. */
import { AccessControl } from './access-control.js';
import { DEMO_KEY_OWNER } from './demo-key.js';
import { createKey } from './issue-keys.js';
import { openStore } from './open-store.js';
import { type KeyStore, type Plan, StoreError } from './store.js';
import { UsageMeter } from './usage-meter.js';

export interface Keys {
  store: KeyStore;
  meter: UsageMeter;
  access: AccessControl;
  /** Writes the last usage and closes the store. */
  close(): Promise<void>;
}

export async function openKeys(options: {
  databaseUrl: string;
  usageFlushMs: number;
  keyCacheTtlMs: number;
  keyStaleMs?: number;
  storeTimeoutMs?: number;
  onError?: (error: unknown) => void;
}): Promise<Keys> {
  const store = await openStore(options.databaseUrl, { timeoutMs: options.storeTimeoutMs });
  const meter = new UsageMeter(store, { flushIntervalMs: options.usageFlushMs, onError: options.onError });
  meter.start();
  const access = new AccessControl(store, meter, { keyCacheTtlMs: options.keyCacheTtlMs, keyStaleMs: options.keyStaleMs });
  return {
    store,
    meter,
    access,
    async close() {
      try {
        await meter.stop();
      } finally {
        await store.close();
      }
    },
  };
}

/**
 * On a store without any key, makes one on the free plan for the developer who just ran `npm start`, and returns it
 * (to be printed once). Undefined when the store already has keys.
 */
/**
 * The development key's plan: enough to explore the API by hand and run the README's examples at once (the free
 * plan's 5 a second refused the sixth of them), not enough to serve an application from it.
 */
export const DEVELOPMENT_PLAN: Plan = { name: 'development', monthlyQuota: 100_000, perSecond: 50 };

export async function createDevelopmentKey(store: KeyStore): Promise<string | undefined> {
  // The widget demo's key (made at every start) does not count: the developer still gets a key of their own.
  const keys = await store.countKeys();
  if (keys > 1 || (keys === 1 && (await store.listKeys({ ownerId: DEMO_KEY_OWNER })).length === 0)) return undefined;
  if (!(await store.getPlan(DEVELOPMENT_PLAN.name))) {
    try {
      await store.createPlan(DEVELOPMENT_PLAN);
    } catch (error) {
      // Another replica made it at the same first start.
      if (!(error instanceof StoreError && error.code === 'conflict')) throw error;
    }
  }
  return (await createKey(store, { plan: DEVELOPMENT_PLAN.name, name: 'development key (first start)' })).key;
}
