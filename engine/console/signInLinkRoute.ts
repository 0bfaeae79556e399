/**
 * POST /api/console/links: op=create (admin, with the session's CSRF token, rate-limited per
 * admin) makes a one-time sign-in link for an account, shown once on /users; op=use (anyone, from
 * the console's own sign-in page: same-origin, rate-limited per address) spends one and signs in
 * (engine/console/signInLinks.ts), then goes where a password sign-in would: the page the link
 * was made for or followed from (its `?next=`, carried by the sign-in page's link form as a hidden
 * `next` field; only a console page, engine/console/returnTo.ts), else the overview. A link that
 * was used, expired or never made sends the browser back to the sign-in page with one message for
 * all three. Over either rate limit a browser's post goes back to its page, which says so; an API
 * client asking for JSON gets the 429.
 */
import type { IncomingMessage } from 'node:http';
import { clientIp, type ApiAnswer } from '../http/api';
import type { Store } from '../store/db';
import { normaliseEmail } from '../store/console';
import { requireUser, sessionCookie } from './api';
import { csrfValid } from './csrf';
import { formOutOfDate, refusalError } from './formRefusals';
import { limitedForm, readConsoleForm } from './forms';
import { afterSignIn, returnPath, signInAddress } from './returnTo';
import { createSignInLink, spendSignInLink } from './signInLinks';

const CREATE = { name: 'sign-in-link-create', limit: Number(process.env.RATE_LIMIT_SIGN_IN_LINKS ?? 20), windowMs: 60_000 };
const USE = { name: 'sign-in-link-use', limit: Number(process.env.RATE_LIMIT_SIGN_IN_LINKS ?? 20), windowMs: 60_000 };

const see = (location: string, headers: Record<string, string> = {}): ApiAnswer => ({
  status: 303,
  body: { location },
  headers: { Location: location, ...headers },
});

export async function signInLinkRoute(db: Store, req: IncomingMessage): Promise<ApiAnswer> {
  const form = await readConsoleForm(req);
  if (form.op === 'use') {
    // the sign-in page says so (it runs no script); an API client asking for JSON gets the 429
    // the return address rides along as with the password: kept through a refusal and the two-step code
    const limited = await limitedForm(req.headers, USE, clientIp(req), 'Too many sign-in links tried', signInAddress({ error: 'link_limited' }, form.next));
    if (limited) return limited;
    const used = await spendSignInLink(db, form.token ?? '');
    if (!used.ok) return see(signInAddress({ error: 'link' }, form.next));
    // an admin who must first set up an authenticator goes to the account page whatever the address, as after a password
    const next = used.stage === 'code' ? signInAddress({}, form.next) : used.stage === 'enrol' ? '/account' : afterSignIn(form.next);
    return see(next, { 'Set-Cookie': sessionCookie(used.token, used.ttlMs / 1000) });
  }
  const who = await requireUser(db, { method: 'POST', headers: req.headers as Record<string, string | undefined>, ip: clientIp(req) }, 'users.manage');
  if ('refused' in who) throw refusalError(who);
  if (!csrfValid(who.token, form.csrf)) throw formOutOfDate();
  if (form.op !== 'create') return see('/users?note=op');
  const limited = await limitedForm(req.headers, CREATE, who.user.email, 'Too many sign-in links made', '/users?note=link_limited');
  if (limited) return limited;
  const open = (form.open ?? '').trim();
  const next = open === '' || open === '/' ? undefined : returnPath(open);
  if (open !== '' && open !== '/' && next === undefined) return see('/users?note=link_open');
  const r = await createSignInLink(db, normaliseEmail((form.email ?? '').slice(0, 254)), who.user.email, new Date(), next);
  return see(`/users?note=${r === 'ok' ? 'link' : r === 'missing' ? 'missing' : 'link_disabled'}`);
}
