/**
 * API keys: `khk_` (secret key) or `khp_` (browser key, publishable: limited to a list of origins) + 24 random
 * base62 characters (143 bits) + a 6-character checksum of those, 34 characters in all. The checksum lets a
 * mistyped or made-up key be refused without asking the store. Only a SHA-256 hash of the key is stored, with its
 * first 10 characters (`khk_` + 6) as a non-secret label.
 */
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'khk_';
/** Browser (publishable) keys: served only to the origins listed with the key. */
export const BROWSER_KEY_PREFIX = 'khp_';
export type KeyKind = 'secret' | 'browser';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 24;
const CHECKSUM_LENGTH = 6;
export const KEY_LENGTH = KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH;
const KEY_SHAPE = new RegExp(`^kh[kp]_[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);
/** Characters of a key shown in lists and logs to tell keys apart. */
export const DISPLAY_PREFIX_LENGTH = 10;

/** Random base62 text without modulo bias (bytes >= 248 are drawn again). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  let n = createHash('sha256').update(body).digest().readUInt32BE(0);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** A new secret key. Show it once; store only {@link hashKey} of it. */
export function generateKey(kind: KeyKind = 'secret'): string {
  const body = randomBase62(BODY_LENGTH);
  return `${kind === 'browser' ? BROWSER_KEY_PREFIX : KEY_PREFIX}${body}${checksum(body)}`;
}

/** Whether the text is shaped like a browser key (the prefix only: a cheap test before any lookup). */
export function isBrowserKeyText(text: string): boolean {
  return text.startsWith(BROWSER_KEY_PREFIX);
}

/** Whether the text has the form of a key and its checksum holds: no store lookup needed to refuse it. */
export function isWellFormedKey(text: string): boolean {
  if (!KEY_SHAPE.test(text)) return false;
  const body = text.slice(KEY_PREFIX.length, KEY_PREFIX.length + BODY_LENGTH);
  return checksum(body) === text.slice(KEY_PREFIX.length + BODY_LENGTH);
}

/** SHA-256 of the key, hex: enough for a 143-bit random secret (no salt or slow hash needed). */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** A short public identifier for a key record, e.g. `key_3kT9xQ2mLp0a`. */
export function newKeyId(): string {
  return `key_${randomBase62(12)}`;
}
