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
import { audit, createSession, endSession, findUser, loadAttempts, normaliseEmail, saveAttempts, sessionUser, SESSION_TTL_MS } from '../store/console';
import { toProblems } from '../validate/schema';
import { breakdown, funnel } from '../traffic/funnelQuery';
import { csrfToken, csrfValid } from './csrf';
import { afterAttempt, LOGIN_RULES, loginAllowed, NETWORK_LOGIN_RULES, type AttemptRecord } from './loginLimit';
import { hashPassword, verifyPassword } from './passwords';
import { isRole, may, type Permission } from './roles';

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

// A hash to verify against when the email has no account, so both cases take as long.
let decoy: Promise<string> | undefined;

/** POST: {email, password} → 200 with the session cookie and CSRF token; 401 for a wrong pair; 429 while locked. */
export async function consoleLogin(db: Store, req: ConsoleRequest): Promise<ConsoleAnswer> {
  if (req.method !== 'POST') return refuse(405, 'Use POST', undefined, { Allow: 'POST' });
  const input = checked<ConsoleLogin>(loginSchema, req.body);
  if (!input.ok) return input.answer;
  const now = req.now ?? new Date();
  const email = normaliseEmail(input.value.email);
  const keys = [`email:${email}`, `net:${truncateIp(req.ip)}`];
  const records = await Promise.all(keys.map((k) => loadAttempts(db, k)));
  for (const rec of records) {
    const allowed = loginAllowed(rec, now.getTime());
    if (!allowed.ok)
      return refuse(429, `Too many failed sign-ins; try again in ${Math.ceil(allowed.retryAfterSeconds / 60)} min`, undefined, {
        'Retry-After': String(allowed.retryAfterSeconds),
      });
  }
  const user = await findUser(db, email);
  const ok = await verifyPassword(input.value.password, user?.password_hash ?? (await (decoy ??= hashPassword('decoy password for timing'))));
  const success = ok && !!user;
  let locked = false;
  await Promise.all(
    keys.map((k, i) => {
      const network = k.startsWith('net:');
      const next = afterAttempt(records[i] as AttemptRecord, success, now.getTime(), network ? NETWORK_LOGIN_RULES : LOGIN_RULES, !network);
      locked ||= next.locked;
      return saveAttempts(db, k, next.rec);
    }),
  );
  if (!success) {
    await audit(db, { actor: email, action: locked ? 'lockout' : 'sign_in_failed', target: email, now });
    return refuse(401, 'The email or password is wrong');
  }
  const token = await createSession(db, user.id, now);
  await audit(db, { actor: email, action: 'sign_in', target: email, now });
  return answer(200, { email, role: user.role, csrf: csrfToken(token) }, { 'Set-Cookie': sessionCookie(token, req.headers.host ?? '', SESSION_TTL_MS / 1000) });
}

/** The signed-in user of the request, with their role checked against `permission`; an answer when refused. */
export async function requireUser(db: Store, req: ConsoleRequest, permission: Permission) {
  const token = cookieToken(req);
  const user = await sessionUser(db, token, req.now ?? new Date());
  if (!user || !isRole(user.role)) return { refused: refuse(401, 'Sign in first') } as const;
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
