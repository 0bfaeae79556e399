/**
 * Sign-in rate limit and lockout, as a pure function over the attempts record of one key (an
 * account as tried from one client network, the account from networks it never signed in from,
 * a client network): MAX_FAILURES failures within WINDOW_MS lock the key for LOCK_MS, and every
 * further lockout of the same run doubles it (up to MAX_LOCK_MS); a success clears the record.
 * While locked, even the right password is refused, so guessing on gains nothing. The record
 * lives in the database (console_login_attempts) so instances share it.
 *
 * The lock is by account *and* network: a guesser elsewhere locks only their own network out of
 * the account, and the owner signs in from theirs. Locking the account everywhere let anyone who
 * knew an admin's email keep them out with one guess per lock period.
 */
export const LOGIN_RULES = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000, maxLockMs: 24 * 3600_000 };
/**
 * A client network (an office, a phone carrier's NAT) is shared by many operators: a few people's
 * typos must not lock everyone on it, so the network counts ten times as many failures as an
 * account before it locks, and one operator's success does not wipe the network's record (or a
 * guesser holding one valid account could reset it at will).
 */
export const NETWORK_LOGIN_RULES = { ...LOGIN_RULES, maxFailures: 50 };
/**
 * Guessing spread over many networks (each gets LOGIN_RULES' five): after this many failures in a
 * day from anywhere, the account is locked for every network it has not signed in from lately
 * (KNOWN_NETWORK_MS); the networks its owner uses are not, so the guessers cannot lock them out.
 */
export const ACCOUNT_LOGIN_RULES = { ...LOGIN_RULES, maxFailures: 20, windowMs: 24 * 3600_000 };
/** How long a network a full sign-in came from stays known to the account. */
export const KNOWN_NETWORK_MS = 30 * 24 * 3600_000;

export interface AttemptRecord {
  failures: number;
  /** ms since the epoch */
  windowStart: number;
  /** ms since the epoch; 0 when not locked */
  lockedUntil: number;
}

export const NO_ATTEMPTS: AttemptRecord = { failures: 0, windowStart: 0, lockedUntil: 0 };

/** Whether a sign-in may be tried now, and if not, for how many more seconds. */
export function loginAllowed(rec: AttemptRecord, now: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
  return rec.lockedUntil > now ? { ok: false, retryAfterSeconds: Math.ceil((rec.lockedUntil - now) / 1000) } : { ok: true };
}

/** The record after an attempt that was allowed, and whether this one locked the key. */
export function afterAttempt(
  rec: AttemptRecord,
  success: boolean,
  now: number,
  rules: typeof LOGIN_RULES = LOGIN_RULES,
  clearOnSuccess = true,
): { rec: AttemptRecord; locked: boolean } {
  if (success) return { rec: clearOnSuccess ? NO_ATTEMPTS : rec, locked: false };
  // A failure soon after a lockout ended continues the run (so the next lockout is longer).
  const inWindow = now - rec.windowStart < rules.windowMs || (rec.lockedUntil > 0 && now - rec.lockedUntil < rules.windowMs);
  const failures = (inWindow ? rec.failures : 0) + 1;
  const windowStart = inWindow ? rec.windowStart : now;
  if (failures < rules.maxFailures) return { rec: { failures, windowStart, lockedUntil: rec.lockedUntil }, locked: false };
  // Each lockout within a run of failures (failures keep counting past the limit) lasts twice the one before.
  const lockouts = failures - rules.maxFailures;
  const lockMs = Math.min(rules.maxLockMs, rules.lockMs * 2 ** Math.min(lockouts, 20));
  return { rec: { failures, windowStart: now, lockedUntil: now + lockMs }, locked: true };
}
