/**
 * New key secrets waiting to be shown once (POST/redirect/GET): the POST that makes or rotates a key stores the secret
 * here under a random handle and redirects to a page that takes it out. Reloading that page, or opening it from
 * another account, finds nothing. The secret never appears in a URL; the handle alone is worthless to anybody else
 * (bound to the account, single use, gone after TTL_MS).
 *
 * In memory, in this process: with several replicas, the redirected GET must reach the same replica (sticky
 * sessions), or the page says the key was already shown and the developer rotates it (documented in the README).
 */
import { randomBytes } from 'node:crypto';
import type { ApiKeyRecord } from '../keys/store.js';

export interface IssuedSecret {
  key: string;
  record: ApiKeyRecord;
}

const TTL_MS = 10 * 60_000;
const MAX_WAITING = 10_000;
const HANDLE = /^[A-Za-z0-9_-]{22}$/;

export class OneTimeReveals {
  private readonly waiting = new Map<string, { accountId: string; issued: IssuedSecret; expiresAt: number }>();

  /** Keeps the secret for one showing; returns the handle to put in the redirect. */
  put(accountId: string, issued: IssuedSecret, now = Date.now()): string {
    for (const [handle, entry] of this.waiting) {
      if (entry.expiresAt > now && this.waiting.size < MAX_WAITING) break;
      this.waiting.delete(handle);
    }
    const handle = randomBytes(16).toString('base64url');
    this.waiting.set(handle, { accountId, issued, expiresAt: now + TTL_MS });
    return handle;
  }

  /** The secret, once, to the account it was made for; undefined if shown already, expired or not theirs. */
  take(handle: string, accountId: string, now = Date.now()): IssuedSecret | undefined {
    if (!HANDLE.test(handle)) return undefined;
    const entry = this.waiting.get(handle);
    if (!entry || entry.accountId !== accountId) return undefined;
    this.waiting.delete(handle);
    return entry.expiresAt > now ? entry.issued : undefined;
  }

  get size(): number {
    return this.waiting.size;
  }
}
