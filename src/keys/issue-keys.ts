/** Making and rotating keys: the secret is returned once and never stored. Shared by the CLI and the dashboard. */
import { displayPrefix, generateKey, hashKey, newKeyId } from './key-format.js';
import { type ApiKeyRecord, type KeyStore, StoreError } from './store.js';

export interface IssuedKey {
  record: ApiKeyRecord;
  /** The secret key: show it once. */
  key: string;
}

/** `limits.maxLiveKeysPerOwner`: refuse (StoreError 'limit') when the owner already has that many live keys. */
export async function createKey(
  store: KeyStore,
  { plan = 'free', name = null, ownerId = null }: { plan?: string; name?: string | null; ownerId?: string | null } = {},
  limits: { maxLiveKeysPerOwner?: number } = {},
): Promise<IssuedKey> {
  const key = generateKey();
  const record = await store.createKey({
    id: newKeyId(), hash: hashKey(key), prefix: displayPrefix(key), name, plan, ownerId, createdAt: new Date().toISOString(),
  }, limits);
  return { record, key };
}

/** A new secret for the key `id`; the old one stops working (after the key cache TTL on other replicas). */
export async function rotateKey(store: KeyStore, id: string): Promise<IssuedKey> {
  const key = generateKey();
  if (!(await store.replaceSecret(id, hashKey(key), displayPrefix(key)))) throw new StoreError(`no live key ${id}`, 'not_found');
  return { record: (await store.getKey(id))!, key };
}
