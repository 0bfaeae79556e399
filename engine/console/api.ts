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
import { ACCOUNT_LOGIN_RULES, afterAttempt, KNOWN_NETWORK_MS, LOGIN_RULES, loginAllowed, NETWORK_LOGIN_RULES, type AttemptRecord } from './loginLimit';
import { HashingBusy, timeOfAVerification, verifyPassword } from './passwords';
import { isRole, may, type Permission } from './roles';
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
export function sessionCookie(token: string, _host: string, maxAgeSeconds: number): string {
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
 * Records one attempt (a password, or a second-factor code) on every record; whether it locked
 * one. A success clears the pair's failures and marks the network known to the account, unless
 * `complete` is false — a right password with the code still to come, so re-entering the
 * password cannot reset the count of wrong codes. The network's and the account-wide failures
 * are never cleared by a success (or one valid account would reset them at will).
 */
export async function recordAttempt(db: Store, keys: AttemptKeys, success: boolean, now: Date, complete = true): Promise<boolean> {
  const t = now.getTime();
  const records: [string, typeof LOGIN_RULES, boolean][] = [
    [keys.pair, LOGIN_RULES, complete],
    [keys.account, ACCOUNT_LOGIN_RULES, false],
    [keys.network, NETWORK_LOGIN_RULES, false],
  ];
  let locked = false;
  await Promise.all(
    records.map(async ([key, rules, clear]) => {
      const next = afterAttempt(await loadAttempts(db, key), success, t, rules, clear);
      locked ||= next.locked;
      await saveAttempts(db, key, next.rec);
    }),
  );
  if (success && complete) await saveAttempts(db, keys.known, { failures: 0, windowStart: t, lockedUntil: 0 });
  return locked;
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
  const blocked = await lockedAnswer(db, keys, now);
  if (blocked) return blocked;
  const user = await findUser(db, email);
  let success = false;
  try {
    // a disabled account answers as a wrong password does: the sign-in says no more to whoever holds it
    if (user) success = (await verifyPassword(input.value.password, user.password_hash)) && !user.disabled_at;
    else await timeOfAVerification();
  } catch (err) {
    if (!(err instanceof HashingBusy)) throw err;
    // Not counted as a failure: the password was never checked.
    return refuse(503, err.message, undefined, { 'Retry-After': String(err.retryAfterSeconds) });
  }
  const stage: SessionStage = !user ? 'full' : Number(user.totp_enabled) === 1 ? 'code' : isRole(user.role) && totpRequired(user.role) ? 'enrol' : 'full';
  const locked = await recordAttempt(db, keys, success, now, stage !== 'code');
  if (!success || !user) {
    await audit(db, { actor: email, action: locked ? 'lockout' : 'sign_in_failed', target: email, now });
    return refuse(401, 'The email or password is wrong');
  }
  const ttl = stage === 'full' ? SESSION_TTL_MS : SECOND_STEP_TTL_MS;
  const token = await createSession(db, user.id, now, ttl, stage);
  if (stage !== 'code') await audit(db, { actor: email, action: 'sign_in', target: email, ...(stage === 'enrol' ? { detail: { mustEnrol: true } } : {}), now });
  return answer(
    200,
    { email, role: user.role, csrf: csrfToken(token), ...(stage === 'full' ? {} : { stage }) },
    { 'Set-Cookie': sessionCookie(token, req.headers.host ?? '', ttl / 1000) },
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
  if (!may(user.role, permission)) return { refused: refuse(403, 'Your role may not see this') } as const;
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
  return answer(200, { signedOut: true }, { 'Set-Cookie': sessionCookie('', req.headers.host ?? '', 0) });
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
