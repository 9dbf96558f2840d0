/**
 * Limits on sign-in guesses and sign-ups, in this process (per replica; documented in the README).
 *
 * Sign-in: every attempt is RESERVED before the password is verified (synchronously, before any await), so that
 * concurrent attempts cannot all pass a check made before a slow verify; a success gives its reservation back. In a
 * window of 15 minutes:
 * - per (email, address): 5 failures, then that address is refused for that email;
 * - per address: 20 failures over all emails, then the address is refused;
 * - per email from anywhere: 10 failures, then addresses that have not signed in to this account before are refused,
 *   while the owner's own addresses (a successful sign-in from there in the last 30 days) still get their own
 *   per-(email, address) allowance. A stranger can therefore neither lock the owner out from where they usually sign
 *   in, nor have more than 10 guesses verified per email per window from all the addresses they have.
 * IPv6 addresses count by their /64 (one subscriber usually has a whole /64).
 *
 * Sign-up: each attempt that reaches the password hash is reserved per address: 10 an hour.
 */

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const SIGN_IN_LIMITS = { perPair: 5, perAddress: 20, perEmail: 10 } as const;
export const KNOWN_ADDRESS_MS = 30 * 86_400_000;
export const SIGN_UP_WINDOW_MS = 60 * 60_000;
export const SIGN_UPS_PER_ADDRESS = 10;
/**
 * Entries kept at most per table; beyond, the oldest are forgotten (memory stays bounded whatever the traffic).
 * Forgetting cannot be used to reset a limit: only verified guesses add entries (three each), and a process verifies
 * a few dozen passwords a second at most (scrypt), so a 15-minute window holds well under this many.
 */
const MAX_ENTRIES = 200_000;

/** Times of recent events per key, in a sliding window. */
export class SlidingWindow {
  private readonly times = new Map<string, number[]>();
  constructor(private readonly windowMs: number, private readonly maxEntries = MAX_ENTRIES) {}

  count(key: string, now: number): number {
    const times = this.times.get(key);
    if (!times) return 0;
    const recent = times.filter((t) => t > now - this.windowMs);
    if (recent.length === 0) this.times.delete(key);
    else if (recent.length !== times.length) this.times.set(key, recent);
    return recent.length;
  }

  add(key: string, at: number): void {
    const times = this.times.get(key);
    if (times) times.push(at);
    else {
      if (this.times.size >= this.maxEntries) this.evict(at);
      this.times.set(key, [at]);
    }
  }

  /** Takes back one event at `at` (a reservation that turned out not to be a failure). */
  remove(key: string, at: number): void {
    const times = this.times.get(key);
    const i = times?.indexOf(at) ?? -1;
    if (i === -1) return;
    times!.splice(i, 1);
    if (times!.length === 0) this.times.delete(key);
  }

  clear(key: string): void {
    this.times.delete(key);
  }

  get size(): number {
    return this.times.size;
  }

  /** Drops expired keys; if the table is still full, the oldest tenth (Map order is insertion order). */
  private evict(now: number): void {
    for (const key of this.times.keys()) this.count(key, now);
    if (this.times.size < this.maxEntries) return;
    let n = Math.ceil(this.maxEntries / 10);
    for (const key of this.times.keys()) {
      if (n-- <= 0) break;
      this.times.delete(key);
    }
  }
}

/** The part of a client address that identifies a subscriber: IPv4 as is, IPv6 by its /64. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':') || address.length > 64) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export interface Reservation {
  keys: string[];
  at: number;
  email: string;
  address: string;
}

export class SignInLimiter {
  private readonly failures = new SlidingWindow(SIGN_IN_WINDOW_MS);
  /** email -> address -> when the last successful sign-in from there expires as "known". */
  private readonly known = new Map<string, Map<string, number>>();

  /** Reserves one guess for `email` from `address`, or says it is refused. Synchronous: call before any await. */
  reserve(email: string, clientAddress: string, now = Date.now()): Reservation | 'blocked' {
    const address = addressKey(clientAddress);
    const pair = `pair:${email}\u0000${address}`;
    const byAddress = `addr:${address}`;
    const byEmail = `email:${email}`;
    if (this.failures.count(pair, now) >= SIGN_IN_LIMITS.perPair) return 'blocked';
    if (this.failures.count(byAddress, now) >= SIGN_IN_LIMITS.perAddress) return 'blocked';
    if (this.failures.count(byEmail, now) >= SIGN_IN_LIMITS.perEmail && !this.isKnown(email, address, now)) return 'blocked';
    const keys = [pair, byAddress, byEmail];
    for (const key of keys) this.failures.add(key, now);
    return { keys, at: now, email, address };
  }

  /** The guess was right: it does not count, the pair's earlier failures are forgiven, the address becomes known. */
  succeeded(reservation: Reservation, now = Date.now()): void {
    for (const key of reservation.keys) this.failures.remove(key, reservation.at);
    this.failures.clear(reservation.keys[0]!);
    let addresses = this.known.get(reservation.email);
    if (!addresses) {
      if (this.known.size >= MAX_ENTRIES) this.known.delete(this.known.keys().next().value!);
      this.known.set(reservation.email, (addresses = new Map()));
    }
    addresses.delete(reservation.address);
    addresses.set(reservation.address, now + KNOWN_ADDRESS_MS);
    if (addresses.size > 10) addresses.delete(addresses.keys().next().value!);
  }

  private isKnown(email: string, address: string, now: number): boolean {
    const until = this.known.get(email)?.get(address);
    return until !== undefined && until > now;
  }
}

/** Sign-ups per address: each one costs a password hash. */
export class SignUpLimiter {
  private readonly attempts = new SlidingWindow(SIGN_UP_WINDOW_MS);

  /** Reserves one sign-up for the address; false if it has had its share this hour. Synchronous. */
  reserve(clientAddress: string, now = Date.now()): boolean {
    const key = addressKey(clientAddress);
    if (this.attempts.count(key, now) >= SIGN_UPS_PER_ADDRESS) return false;
    this.attempts.add(key, now);
    return true;
  }
}
