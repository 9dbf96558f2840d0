/**
 * The widget demo's browser key: made at start (like the development key) so that /widget/demo works on a fresh
 * start, limited to the service's own origins. Its secret is kept in this process's memory only (the page shows
 * it); each start gives it a new secret and the current origins, keeping its id and usage.
 */
import { createKey, rotateKey } from './issue-keys.js';
import { type KeyStore, StoreError } from './store.js';

export const DEMO_KEY_NAME = 'widget demo key (made at start)';
/** The demo key's owner: not an account (those are acct_...), so no developer sees it, and found by the owner index. */
export const DEMO_KEY_OWNER = 'system:widget-demo';

/**
 * The demo key's plan, made if missing: a page that sets a picker's value asks for up to four lists at once, and a
 * visitor may try both pickers of the demo at the same time, more than the free plan's 5 a second. Still bounded:
 * the key is public on the demo page.
 */
export const DEMO_PLAN = { name: 'widget-demo', monthlyQuota: 10_000, perSecond: 20 };

export async function ensureDemoKey(store: KeyStore, origins: string[]): Promise<{ id: string; key: string }> {
  if (!(await store.getPlan(DEMO_PLAN.name))) {
    try {
      await store.createPlan(DEMO_PLAN);
    } catch (error) {
      // Another replica made it at the same moment.
      if (!(error instanceof StoreError && error.code === 'conflict')) throw error;
    }
  }
  const existing = (await store.listKeys({ ownerId: DEMO_KEY_OWNER })).find((k) => k.revokedAt === null && k.allowedOrigins !== null);
  if (existing) {
    await store.setKeyOrigins(existing.id, origins);
    const { key, record } = await rotateKey(store, existing.id);
    return { id: record.id, key };
  }
  const { key, record } = await createKey(store, { name: DEMO_KEY_NAME, ownerId: DEMO_KEY_OWNER, origins, plan: DEMO_PLAN.name });
  return { id: record.id, key };
}
