/** Making and rotating keys: the secret is returned once and never stored. Shared by the CLI and the dashboard. */
import { displayPrefix, generateKey, hashKey, newKeyId } from './key-format.js';
import { type ApiKeyRecord, type KeyStore, StoreError } from './store.js';

export interface IssuedKey {
  record: ApiKeyRecord;
  /** The secret key: show it once. */
  key: string;
}

/**
 * `origins` (canonical, see ./origins.ts): makes a browser key served only to those origins; without it, a secret key.
 * `limits.maxLiveKeysPerOwner`: refuse (StoreError 'limit') when the owner already has that many live keys.
 */
export async function createKey(
  store: KeyStore,
  { plan = 'free', name = null, ownerId = null, origins = null }:
    { plan?: string; name?: string | null; ownerId?: string | null; origins?: string[] | null } = {},
  limits: { maxLiveKeysPerOwner?: number } = {},
): Promise<IssuedKey> {
  const key = generateKey(origins ? 'browser' : 'secret');
  const record = await store.createKey({
    id: newKeyId(), hash: hashKey(key), prefix: displayPrefix(key), name, plan, ownerId, createdAt: new Date().toISOString(), allowedOrigins: origins,
  }, limits);
  return { record, key };
}

/** A new secret for the key `id`; the old one stops working (after the key cache TTL on other replicas). */
export async function rotateKey(store: KeyStore, id: string): Promise<IssuedKey> {
  const current = await store.getKey(id);
  const key = generateKey(current?.allowedOrigins ? 'browser' : 'secret');
  if (!(await store.replaceSecret(id, hashKey(key), displayPrefix(key)))) throw new StoreError(`no live key ${id}`, 'not_found');
  return { record: (await store.getKey(id))!, key };
}
