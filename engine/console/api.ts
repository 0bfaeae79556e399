/**
 * The console's API as plain functions over a request-like object, ready for the front door to
 * mount on the console host (nothing routes to them yet): sign in, the session, sign out, the
 * funnel. Each validates its input against a schema in schemas/api/, answers 4xx with a reason,
 * and sets no-store. The session cookie is `__Host-console_session` (HttpOnly, SameSite=Strict,
 * Path=/, Secure); every change needs the CSRF token of the session.
 */
import loginSchema from '../../schemas/api/console-login.schema.json' with { type: 'json' };
import funnelSchema from '../../schemas/api/console-funnel-query.schema.json' with { type: 'json' };
import type { ConsoleFunnelQuery, ConsoleLogin } from '../../schemas/api.types';
import { sql } from 'kysely';
import { truncateIp, validatorFor } from '../http/api';
import type { Store } from '../store/db';
import {
  audit,
  createSession,
  endSession,
  findUser,
  loadAttempts,
  normaliseEmail,
  saveAttempts,
  SECOND_STEP_TTL_MS,
  sessionUser,
  SESSION_TTL_MS,
  type SessionStage,
} from '../store/console';
import { toProblems } from '../validate/problems';
import { breakdown, funnel } from '../traffic/funnelQuery';
import { csrfToken, csrfValid } from './csrf';
import {
  ACCOUNT_LOGIN_RULES,
  afterAttempt,
  KNOWN_NETWORK_MS,
  LOGIN_RULES,
  loginAllowed,
  NETWORK_LOGIN_RULES,
  NO_ATTEMPTS,
  type AttemptRecord,
} from './loginLimit';
import { isPostgresStore } from '../store/trafficPartitions';
import { HashingBusy, timeOfAVerification, verifyPassword } from './passwords';
import { isRole, may, PERMISSION_WORDS, type Permission } from './roles';
import { totpRequired } from './totp';

export const SESSION_COOKIE = '__Host-console_session';

export interface ConsoleRequest {
  method: string;
  headers: Record<string, string | undefined>;
  /** the parsed JSON body (POST) or the query (GET) */
  body?: unknown;
  /** the client's address (for the per-network sign-in limit; stored truncated, never whole) */
  ip: string;
  now?: Date;
}

export interface ConsoleAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

const answer = (status: number, body: unknown, headers: Record<string, string> = {}): ConsoleAnswer => ({
  status,
  body,
  headers: { 'Cache-Control': 'no-store', ...headers },
});
const refuse = (status: number, error: string, problems?: string[], headers?: Record<string, string>) =>
  answer(status, { error, ...(problems ? { problems } : {}) }, headers);

function checked<T>(schema: object, value: unknown): { ok: true; value: T } | { ok: false; answer: ConsoleAnswer } {
  const validate = validatorFor<T>(schema);
  if (validate(value)) return { ok: true, value };
  return {
    ok: false,
    answer: refuse(
      400,
      'The request is not valid',
      toProblems(validate.errors).map((p) => `${p.pointer || '/'}: ${p.message}`),
    ),
  };
}

/**
 * Secure everywhere, localhost included: browsers drop a __Host- cookie without Secure, and they
 * accept Secure cookies from http://localhost and http://*.localhost (trustworthy origins), so
 * `npm start` at http://console.localhost:3000 signs in like a deployment behind HTTPS.
 */
export function sessionCookie(token: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}; Secure`;
}

/** Whether the request carries a session cookie at all (so a refused one expired or was ended, rather than never existed). */
export const hasSessionCookie = (req: Pick<ConsoleRequest, 'headers'>): boolean => cookieToken(req) !== '';

const cookieToken = (req: Pick<ConsoleRequest, 'headers'>): string =>
  new RegExp(`(?:^|;\\s*)${SESSION_COOKIE.replace(/[-]/g, '\\-')}=([\\w-]+)`).exec(req.headers.cookie ?? '')?.[1] ?? '';

/**
 * The sign-in limiter's records for an account tried from a client network (its address
 * truncated): the pair, the account from anywhere, the network, and the mark of a network the
 * account has fully signed in from (engine/console/loginLimit.ts says why each).
 */
export interface AttemptKeys {
  pair: string;
  account: string;
  network: string;
  known: string;
}

export function attemptKeys(email: string, ip: string): AttemptKeys {
  const account = `email:${normaliseEmail(email)}`;
  const network = `net:${truncateIp(ip)}`;
  return { pair: `${account}|${network}`, account, network, known: `known:${normaliseEmail(email)}|${network}` };
}

/** Whether the account fully signed in from the network within KNOWN_NETWORK_MS (the mark's windowStart is that time). */
const knownNetwork = (mark: AttemptRecord, now: number) => mark.windowStart > 0 && now - mark.windowStart < KNOWN_NETWORK_MS;

/**
 * A 429 answer (with Retry-After) while the account is locked for this network — its own
 * failures from here, the network's failures, or guessing from many networks when this one is
 * not one the account signs in from; undefined when a sign-in may be tried.
 */
export async function lockedAnswer(db: Store, keys: AttemptKeys, now: Date): Promise<ConsoleAnswer | undefined> {
  const [pair, network, account, known] = await Promise.all([keys.pair, keys.network, keys.account, keys.known].map((k) => loadAttempts(db, k)));
  const t = now.getTime();
  for (const rec of knownNetwork(known!, t) ? [pair!, network!] : [pair!, network!, account!]) {
    const allowed = loginAllowed(rec, t);
    if (!allowed.ok)
      return refuse(429, `Too many failed sign-ins; try again in ${Math.ceil(allowed.retryAfterSeconds / 60)} min`, undefined, {
        'Retry-After': String(allowed.retryAfterSeconds),
      });
  }
  return undefined;
}

/**
 * An account's attempt records are read and written by one sign-in at a time, whichever instance
 * it is on (PostgreSQL: transaction-level advisory locks on the account, then on the network —
 * always in that order; SQLite: one writer, and the store's one connection runs one transaction at
 * a time). Unserialised, parallel attempts read the same record and each wrote it back with one
 * failure more: a burst was counted as a few failures. A sign-in waits for the locks at most
 * LOCK_WAIT_MS (then it is answered busy), so a flood of them cannot hold the store's connections.
 */
function withAttempts<T>(db: Store, keys: AttemptKeys, work: (trx: Store) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (isPostgresStore(db)) {
      await sql`select set_config('lock_timeout', ${String(LOCK_WAIT_MS)}, true)`.execute(trx);
      for (const key of [keys.account, keys.network]) await sql`select pg_advisory_xact_lock(hashtext(${`loansites sign-in ${key}`}))`.execute(trx);
    }
    return work(trx);
  });
}

const LOCK_WAIT_MS = 3000;

/** The answer to a sign-in that waited too long for the records of its account (lock_not_available). */
export function busyAnswer(err: unknown): ConsoleAnswer | undefined {
  if ((err as { code?: unknown })?.code !== '55P03') return undefined;
  return refuse(503, 'Too many sign-ins are being checked at once; try again in a moment', undefined, { 'Retry-After': '2' });
}

/** An attempt counted in advance (reserveAttempt): each record as it was, and as the attempt left it. */
export interface Reservation {
  locked: boolean;
  records: { key: string; before: AttemptRecord; after: AttemptRecord }[];
}

/**
 * Counts an attempt (a password, or a second-factor code) as a failure on every record before it
 * is checked, in one step with the check that none is locked: parallel attempts, on one instance
 * or several, each see the ones before them, so no more are ever checked than the rules allow
 * (checked first and counted after, a burst was all checked before the first was counted). The
 * 429 answer when locked, else the reservation to settle once the answer is known.
 */
export async function reserveAttempt(db: Store, keys: AttemptKeys, now: Date): Promise<{ blocked: ConsoleAnswer } | { reservation: Reservation }> {
  const t = now.getTime();
  return withAttempts(db, keys, async (trx) => {
    const blocked = await lockedAnswer(trx, keys, now);
    if (blocked) return { blocked };
    const reservation: Reservation = { locked: false, records: [] };
    for (const [key, rules] of [
      [keys.pair, LOGIN_RULES],
      [keys.account, ACCOUNT_LOGIN_RULES],
      [keys.network, NETWORK_LOGIN_RULES],
    ] as const) {
      const before = await loadAttempts(trx, key);
      const next = afterAttempt(before, false, t, rules);
      reservation.locked ||= next.locked;
      await saveAttempts(trx, key, next.rec);
      reservation.records.push({ key, before, after: next.rec });
    }
    return { reservation };
  });
}

/**
 * Settles a reserved attempt. A failure stands as counted. A right answer, or one never checked
 * (hashing busy), takes its failure back — and the lock it set, unless another attempt has changed
 * it since. A complete sign-in (not a right password with the code still to come, so re-entering
 * the password cannot reset the count of wrong codes) clears the pair's record and marks the
 * network known to the account; the network's and the account-wide failures are never cleared by
 * a success (or one valid account would reset them at will).
 */
export async function settleAttempt(
  db: Store,
  keys: AttemptKeys,
  reservation: Reservation,
  outcome: 'failure' | 'success' | 'unchecked',
  now: Date,
  complete = true,
): Promise<void> {
  if (outcome === 'failure') return;
  const clear = outcome === 'success' && complete;
  await withAttempts(db, keys, async (trx) => {
    for (const { key, before, after } of reservation.records) {
      if (clear && key === keys.pair) {
        await saveAttempts(trx, key, NO_ATTEMPTS);
        continue;
      }
      const current = await loadAttempts(trx, key);
      const ownLock = after.lockedUntil !== before.lockedUntil && current.lockedUntil === after.lockedUntil;
      const failures = Math.max(0, current.failures - 1);
      await saveAttempts(trx, key, ownLock ? { failures, windowStart: before.windowStart, lockedUntil: before.lockedUntil } : { ...current, failures });
    }
    if (clear) await saveAttempts(trx, keys.known, { failures: 0, windowStart: now.getTime(), lockedUntil: 0 });
  });
}

/**
 * POST: {email, password} → 200 with the session cookie and CSRF token; 401 for a wrong pair; 429
 * while locked; 503 with Retry-After while too many sign-ins are being checked at once. With a second factor on, the session is at stage `code` until the code is given
 * (engine/console/totpRoutes.ts); an admin in a deployment without one gets stage `enrol`.
 */
export async function consoleLogin(db: Store, req: ConsoleRequest): Promise<ConsoleAnswer> {
  if (req.method !== 'POST') return refuse(405, 'Use POST', undefined, { Allow: 'POST' });
  const input = checked<ConsoleLogin>(loginSchema, req.body);
  if (!input.ok) return input.answer;
  const now = req.now ?? new Date();
  const email = normaliseEmail(input.value.email);
  const keys = attemptKeys(email, req.ip);
  let reserved: Awaited<ReturnType<typeof reserveAttempt>>;
  try {
    reserved = await reserveAttempt(db, keys, now);
  } catch (err) {
    const busy = busyAnswer(err);
    if (busy) return busy;
    throw err;
  }
  if ('blocked' in reserved) return reserved.blocked;
  const { reservation } = reserved;
  const user = await findUser(db, email);
  let success = false;
  try {
    // a disabled account answers as a wrong password does: the sign-in says no more to whoever holds it
    if (user) success = (await verifyPassword(input.value.password, user.password_hash)) && !user.disabled_at;
    else await timeOfAVerification();
  } catch (err) {
    if (!(err instanceof HashingBusy)) throw err;
    // Not counted as a failure: the password was never checked.
    await settleAttempt(db, keys, reservation, 'unchecked', now);
    return refuse(503, err.message, undefined, { 'Retry-After': String(err.retryAfterSeconds) });
  }
  const stage: SessionStage = !user ? 'full' : Number(user.totp_enabled) === 1 ? 'code' : isRole(user.role) && totpRequired(user.role) ? 'enrol' : 'full';
  await settleAttempt(db, keys, reservation, success && user ? 'success' : 'failure', now, stage !== 'code');
  if (!success || !user) {
    await audit(db, { actor: email, action: reservation.locked ? 'lockout' : 'sign_in_failed', target: email, now });
    return refuse(401, 'The email or password is wrong');
  }
  const ttl = stage === 'full' ? SESSION_TTL_MS : SECOND_STEP_TTL_MS;
  const token = await createSession(db, user.id, now, ttl, stage);
  if (stage !== 'code') await audit(db, { actor: email, action: 'sign_in', target: email, ...(stage === 'enrol' ? { detail: { mustEnrol: true } } : {}), now });
  return answer(
    200,
    { email, role: user.role, csrf: csrfToken(token), ...(stage === 'full' ? {} : { stage }) },
    { 'Set-Cookie': sessionCookie(token, ttl / 1000) },
  );
}

/**
 * The signed-in user of the request, with their role checked against `permission` and their
 * session's stage against `stages` (a session still waiting for its second factor reaches
 * nothing else); an answer when refused (with the stage when that was the reason).
 */
export async function requireUser(db: Store, req: ConsoleRequest, permission: Permission, stages: readonly SessionStage[] = ['full']) {
  const token = cookieToken(req);
  const user = await sessionUser(db, token, req.now ?? new Date());
  if (!user || !isRole(user.role)) return { refused: refuse(401, 'Sign in first') } as const;
  if (!stages.includes(user.stage)) return { refused: refuse(401, 'Finish signing in first'), stage: user.stage } as const;
  // the refusal says what the role may not do: a post (an export, a change to accounts) is an act, not a page to see
  if (!may(user.role, permission)) return { refused: refuse(403, `Your role (${user.role}) may not ${PERMISSION_WORDS[permission]}`), permission } as const;
  return { user: { ...user, role: user.role }, token } as const;
}

/** GET: who is signed in, and the CSRF token for their changes. */
export async function consoleSession(db: Store, req: ConsoleRequest): Promise<ConsoleAnswer> {
  const who = await requireUser(db, req, 'overview.view');
  if ('refused' in who) return who.refused!;
  return answer(200, { email: who.user.email, role: who.user.role, csrf: csrfToken(who.token) });
}

/** POST with X-CSRF-Token: ends the session and clears the cookie. */
export async function consoleLogout(db: Store, req: ConsoleRequest): Promise<ConsoleAnswer> {
  if (req.method !== 'POST') return refuse(405, 'Use POST', undefined, { Allow: 'POST' });
  const who = await requireUser(db, req, 'overview.view');
  if ('refused' in who) return who.refused!;
  if (!csrfValid(who.token, req.headers['x-csrf-token'])) return refuse(403, 'The form is out of date; reload the page and try again');
  await endSession(db, who.token);
  await audit(db, { actor: who.user.email, action: 'sign_out', target: who.user.email, now: req.now });
  return answer(200, { signedOut: true }, { 'Set-Cookie': sessionCookie('', 0) });
}

/** GET ?from&to[&brand&campaign&source&landing&device&by]: the funnel (and a breakdown), from the rollups. */
export async function consoleFunnel(db: Store, req: ConsoleRequest): Promise<ConsoleAnswer> {
  if (req.method !== 'GET') return refuse(405, 'Use GET', undefined, { Allow: 'GET' });
  const who = await requireUser(db, req, 'overview.view');
  if ('refused' in who) return who.refused!;
  const input = checked<ConsoleFunnelQuery>(funnelSchema, req.body);
  if (!input.ok) return input.answer;
  const { by, ...filter } = input.value;
  if (Number.isNaN(Date.parse(filter.from)) || Number.isNaN(Date.parse(filter.to))) return refuse(400, 'from and to must be dates');
  const f = { ...filter, from: new Date(filter.from).toISOString(), to: new Date(filter.to).toISOString() };
  return answer(200, { funnel: await funnel(db, f), ...(by ? { breakdown: await breakdown(db, f, by) } : {}) });
}
