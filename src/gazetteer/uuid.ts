import { createHash } from 'node:crypto';

/**
 * Namespace of every unit id: UUIDv5 of the URL `urn:kh-address:ncdd-unit` under the RFC 4122 URL namespace.
 * Never change it: ids are derived from it and promised stable.
 */
export const UNIT_ID_NAMESPACE = '8da004e6-2784-5a8d-aa78-62f74c66739a';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

/** RFC 4122 version-5 (SHA-1, name-based) UUID. */
export function uuidV5(name: string, namespace: string): string {
  if (!isUuid(namespace)) throw new TypeError(`not a UUID: ${namespace}`);
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of the unit with this NCDD code. */
export function unitId(code: string): string {
  return uuidV5(code, UNIT_ID_NAMESPACE);
}
