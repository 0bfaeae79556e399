/**
 * The console's form-post routes (pages/api/console/*): sign in, sign out, reveal a lead. Each
 * reads the form (engine/console/forms.ts: POST, same-origin, form-encoded, capped), does its
 * work through the console's API functions and answers 303 See Other to the page to show next
 * (post/redirect/get: a reload never posts twice). Failures a person can cause go back to a page
 * with a message; a forged or outdated change (no or a wrong CSRF token) is a 403.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError, clientIp } from '../http/api';
import type { Store } from '../store/db';
import { audit } from '../store/console';
import { consoleLogin, consoleLogout, requireUser, type ConsoleAnswer } from './api';
import { csrfValid } from './csrf';
import { formOutOfDate, refusalError } from './formRefusals';
import { limitedForm, readConsoleForm } from './forms';
import { afterSignIn, signInAddress } from './returnTo';

type Answer = { status: number; body: unknown; headers?: Record<string, string> };
const see = (location: string, headers: Record<string, string> = {}): Answer => ({
  status: 303,
  body: { location },
  headers: { Location: location, ...headers },
});

const requestOf = (req: IncomingMessage, body?: unknown) => ({
  method: 'POST',
  headers: req.headers as Record<string, string | undefined>,
  body,
  ip: clientIp(req),
});

/** The form's fields that are present, so a missing one is reported by the schema as missing. */
const present = (form: Record<string, string>, names: string[]) => Object.fromEntries(names.filter((n) => n in form).map((n) => [n, form[n]]));

export async function loginRoute(db: Store, req: IncomingMessage): Promise<Answer> {
  let form: Record<string, string>;
  try {
    form = await readConsoleForm(req);
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return see('/login?error=refused');
    throw err;
  }
  const a: ConsoleAnswer = await consoleLogin(db, requestOf(req, present(form, ['email', 'password'])));
  // the page the operator was going to (a hidden field the sign-in page carries): kept through the code step and a retry
  const next = form.next;
  if (a.status === 200) {
    const stage = (a.body as { stage?: string }).stage;
    // an admin who must set up an authenticator first goes to the account page whatever the return address
    return see(stage === 'code' ? signInAddress({}, next) : stage === 'enrol' ? '/account' : afterSignIn(next), { 'Set-Cookie': a.headers['Set-Cookie']! });
  }
  if (a.status === 503) return see(signInAddress({ error: 'busy' }, next), { 'Retry-After': a.headers['Retry-After'] ?? '2' });
  if (a.status === 429) return see(signInAddress({ error: 'locked', minutes: String(Math.ceil(Number(a.headers['Retry-After'] ?? 60) / 60)) }, next));
  return see(signInAddress({ error: a.status === 401 ? 'wrong' : 'invalid' }, next));
}

export async function logoutRoute(db: Store, req: IncomingMessage): Promise<Answer> {
  const form = await readConsoleForm(req);
  const a = await consoleLogout(db, { ...requestOf(req), headers: { ...requestOf(req).headers, 'x-csrf-token': form.csrf } });
  if (a.status === 200) return see('/login?status=out', { 'Set-Cookie': a.headers['Set-Cookie']! });
  if (a.status === 401) return see('/login');
  // the session's only refusal left: no or a wrong CSRF token
  if (a.status === 403) throw formOutOfDate('/');
  throw new ApiError(a.status, (a.body as { error: string }).error);
}

/** What the lead's page says (`?reveal=limited`) when a browser's reveal was over the limit. */
export const REVEAL_LIMITED = 'Too many leads revealed in the last minute, so this one stays masked. Wait a minute and try again.';

/** An analyst shows one lead's personal data (for REVEAL_MS); the reveal is audited. */
const REVEAL_RULE = { name: 'console-reveal', limit: Number(process.env.RATE_LIMIT_CONSOLE_REVEAL ?? 30), windowMs: 60_000 };

export async function revealRoute(db: Store, req: IncomingMessage): Promise<Answer> {
  const form = await readConsoleForm(req);
  const who = await requireUser(db, requestOf(req), 'leads.reveal');
  const id = form.lead ?? '';
  const valid = /^[A-Za-z0-9_-]{1,64}$/.test(id);
  if ('refused' in who) throw refusalError(who, valid ? `/leads/${id}` : undefined);
  if (!csrfValid(who.token, form.csrf)) throw formOutOfDate(valid ? `/leads/${id}` : undefined);
  // A person reads one lead at a time; a faster stream of reveals is someone copying borrowers'
  // details out. Over it, back to the lead's page, which says so (it runs no script); an API
  // client asking for JSON gets the 429.
  const limited = await limitedForm(req.headers, REVEAL_RULE, who.user.email, 'Too many leads revealed', valid ? `/leads/${id}?reveal=limited` : undefined);
  if (limited) return see(`/leads/${id}?reveal=limited`);
  const lead = valid ? await db.selectFrom('leads').select('id').where('id', '=', id).executeTakeFirst() : undefined;
  if (!lead) throw new ApiError(404, 'No such lead');
  await audit(db, { actor: who.user.email, action: 'reveal', target: lead.id });
  return see(`/leads/${lead.id}`);
}
