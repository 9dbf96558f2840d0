/** Dashboard accounts: sign-up, sign-in with a per-email and per-address attempt limit, and server-side sessions. */
import { createHash, randomBytes } from 'node:crypto';
import { type Account, type KeyStore, StoreError } from '../keys/store.js';
import { DUMMY_HASH, hashPassword, verifyPassword } from './passwords.js';

export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 200;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;
export const SESSION_DAYS = 14;

/** Why sign-up was refused; sign-in never says more than "bad credentials" (it would tell which emails exist). */
export type SignUpProblem = 'invalidEmail' | 'shortPassword' | 'emailTaken';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Failed sign-ins per email and per client address, in this process: after 5 failures in 15 minutes the next
 * attempts are refused until the window passes. (Per replica; a shared limit would need the store.)
 */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();
  constructor(private readonly limit = 5, private readonly windowMs = 15 * 60_000) {}

  private recent(key: string, now: number): number[] {
    const times = (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (times.length === 0) this.failures.delete(key);
    else this.failures.set(key, times);
    return times;
  }

  blocked(keys: string[], now = Date.now()): boolean {
    return keys.some((key) => this.recent(key, now).length >= this.limit);
  }

  fail(keys: string[], now = Date.now()): void {
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now]);
    if (this.failures.size > 100_000) this.failures.clear();
  }
}

export class Accounts {
  readonly attempts = new AttemptLimiter();
  constructor(private readonly store: KeyStore) {}

  async signUp(emailInput: string, password: string): Promise<Account | SignUpProblem> {
    const email = emailInput.trim().toLowerCase();
    if (!EMAIL.test(email)) return 'invalidEmail';
    if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) return 'shortPassword';
    const account = { id: `acct_${randomBytes(9).toString('base64url')}`, email, passwordHash: await hashPassword(password), createdAt: new Date().toISOString() };
    try {
      return await this.store.createAccount(account);
    } catch (error) {
      if (error instanceof StoreError && error.code === 'conflict') return 'emailTaken';
      throw error;
    }
  }

  /** The account, or 'blocked' after too many failures, or undefined for bad credentials (same time either way). */
  async signIn(emailInput: string, password: string, clientAddress: string): Promise<Account | 'blocked' | undefined> {
    const email = emailInput.trim().toLowerCase();
    const keys = [`email:${email}`, `ip:${clientAddress}`];
    if (this.attempts.blocked(keys)) return 'blocked';
    const account = await this.store.findAccountByEmail(email);
    const ok = await verifyPassword(password.slice(0, MAX_PASSWORD_LENGTH), account?.passwordHash ?? DUMMY_HASH);
    if (account && ok) return account;
    this.attempts.fail(keys);
    return undefined;
  }

  /** A new session: the token goes in the cookie, only its hash in the store. */
  async startSession(accountId: string): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + SESSION_DAYS * 86_400_000);
    await this.store.createSession(sha256(token), { accountId, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() });
    return { token, expiresAt };
  }

  async accountOfSession(token: string | undefined): Promise<Account | undefined> {
    if (!token || token.length > 100) return undefined;
    const session = await this.store.findSession(sha256(token), new Date().toISOString());
    return session && this.store.getAccount(session.accountId);
  }

  async endSession(token: string | undefined): Promise<void> {
    if (token) await this.store.deleteSession(sha256(token));
  }
}
