/**
 * The widget demo's browser key: made at start (like the development key) so that /widget/demo works on a fresh
 * start, limited to the service's own origins. Its secret is kept in this process's memory only (the page shows
 * it); each start gives it a new secret and the current origins, keeping its id and usage.
 */
import { createKey, rotateKey } from './issue-keys.js';
import type { KeyStore } from './store.js';

export const DEMO_KEY_NAME = 'widget demo key (made at start)';

export async function ensureDemoKey(store: KeyStore, origins: string[]): Promise<{ id: string; key: string }> {
  const existing = (await store.listKeys()).find((k) => k.ownerId === null && k.name === DEMO_KEY_NAME && k.revokedAt === null && k.allowedOrigins !== null);
  if (existing) {
    await store.setKeyOrigins(existing.id, origins);
    const { key, record } = await rotateKey(store, existing.id);
    return { id: record.id, key };
  }
  const { key, record } = await createKey(store, { name: DEMO_KEY_NAME, origins });
  return { id: record.id, key };
}
