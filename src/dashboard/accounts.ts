/** Dashboard accounts: sign-up and sign-in within the limits of attempts.ts, and server-side sessions. */
import { createHash, randomBytes } from 'node:crypto';
import { type Account, type KeyStore, StoreError } from '../keys/store.js';
import { SignInLimiter, SignUpLimiter } from './attempts.js';
import { MAX_PASSWORD_LENGTH, normaliseEmail, type PasswordProblem, passwordProblem } from './inputs.js';
import { DUMMY_HASH, hashPassword, verifyPassword } from './passwords.js';

export const SESSION_DAYS = 14;

/** Why sign-up was refused; sign-in never says more than "bad credentials" (it would tell which emails exist). */
export type SignUpProblem = 'invalidEmail' | PasswordProblem | 'emailTaken' | 'tooManySignUps';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export class Accounts {
  readonly signIns = new SignInLimiter();
  readonly signUps = new SignUpLimiter();
  constructor(private readonly store: KeyStore) {}

  /**
   * A new account, or why not. Inputs are checked before anything else (no pattern sees an unbounded string, the
   * store never sees a control character); the address's sign-up allowance is reserved before the password hash.
   * A taken email costs the same hash as a new one, and says so (see the README: without email verification, a
   * sign-up that succeeds signs in at once, so a taken email cannot be answered the same way).
   */
  async signUp(emailInput: string, password: string, clientAddress: string): Promise<Account | SignUpProblem> {
    const email = normaliseEmail(emailInput);
    if (email === undefined) return 'invalidEmail';
    const problem = passwordProblem(password);
    if (problem) return problem;
    if (!this.signUps.reserve(clientAddress)) return 'tooManySignUps';
    const account = { id: `acct_${randomBytes(9).toString('base64url')}`, email, passwordHash: await hashPassword(password), createdAt: new Date().toISOString() };
    try {
      return await this.store.createAccount(account);
    } catch (error) {
      if (error instanceof StoreError && error.code === 'conflict') return 'emailTaken';
      throw error;
    }
  }

  /**
   * The account, or 'blocked' when the attempt limits refuse it, or undefined for bad credentials (the same answer
   * and time for an unknown email). The guess is reserved before the store is asked or the password verified.
   */
  async signIn(emailInput: string, password: string, clientAddress: string): Promise<Account | 'blocked' | undefined> {
    const email = normaliseEmail(emailInput);
    // No account can have such an email or password: nothing to look up or verify, nothing guessed.
    if (email === undefined || password.length === 0 || password.length > MAX_PASSWORD_LENGTH) return undefined;
    const reservation = this.signIns.reserve(email, clientAddress);
    if (reservation === 'blocked') return 'blocked';
    const account = await this.store.findAccountByEmail(email);
    const ok = await verifyPassword(password, account?.passwordHash ?? DUMMY_HASH);
    if (account && ok) {
      this.signIns.succeeded(reservation);
      return account;
    }
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
