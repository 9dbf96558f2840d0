/**
 * What the dashboard's forms and paths accept, checked before anything else sees them (the store above all: PostgreSQL
 * refuses a NUL in text with an error). Every check bounds the length first, then uses patterns that are a single
 * character class (linear, no backtracking) or plain string operations.
 */

export const MAX_EMAIL_LENGTH = 254;
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;
export const MAX_KEY_NAME_LENGTH = 80;

/**
 * Characters no email or name may hold: controls (C0 with NUL, DEL, C1), the bidirectional overrides and isolates
 * (they reorder what the text looks like), lone surrogates, non-characters and the private use area. Zero-width
 * joiners and spaces stay allowed in names: Khmer text uses them.
 */
const FORBIDDEN = /[\p{Cc}\p{Cs}\p{Co}\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]/u;

export function hasForbiddenCharacters(text: string): boolean {
  return FORBIDDEN.test(text);
}

const LOCAL_PART = /^[^\s@"\\]+$/u;
const LABEL = /^[\p{L}\p{M}\p{N}-]+$/u;

/** The email lower-cased and trimmed, or undefined if it is not a plausible address. */
export function normaliseEmail(input: string): string | undefined {
  if (input.length > MAX_EMAIL_LENGTH + 64) return undefined;
  const email = input.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || hasForbiddenCharacters(email)) return undefined;
  const at = email.indexOf('@');
  if (at < 1 || at > 64 || email.indexOf('@', at + 1) !== -1) return undefined;
  const local = email.slice(0, at);
  const labels = email.slice(at + 1).split('.');
  if (!LOCAL_PART.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return undefined;
  if (labels.length < 2 || labels.at(-1)!.length < 2) return undefined;
  const goodLabel = (label: string) => label.length >= 1 && label.length <= 63 && LABEL.test(label) && !label.startsWith('-') && !label.endsWith('-');
  return labels.every(goodLabel) ? email : undefined;
}

export type PasswordProblem = 'shortPassword' | 'longPassword';

export function passwordProblem(password: string): PasswordProblem | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return 'shortPassword';
  if (password.length > MAX_PASSWORD_LENGTH) return 'longPassword';
  return undefined;
}

export type NameProblem = 'longName' | 'badName';

/** A key's name: trimmed, empty means none; too long or holding forbidden characters is refused. */
export function keyName(input: string): { name: string | null } | NameProblem {
  if (input.length > MAX_KEY_NAME_LENGTH * 4) return 'longName';
  const name = input.trim();
  if ([...name].length > MAX_KEY_NAME_LENGTH) return 'longName';
  if (hasForbiddenCharacters(name)) return 'badName';
  return { name: name || null };
}

const KEY_ID = /^key_[0-9A-Za-z]{12}$/;

/** Whether the text has the form of a key id (`key_` and 12 base62 characters), checked before any store lookup. */
export function isKeyId(text: string): boolean {
  return text.length === 16 && KEY_ID.test(text);
}
