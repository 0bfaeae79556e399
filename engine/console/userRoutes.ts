/**
 * POST /api/console/users (admin, with the session's CSRF token): add an account (with a
 * temporary password the adding admin is shown once on /users), change a role, disable or enable
 * an account (disabling ends its sessions at once), reset a second factor, limit an editor to
 * some brands in the studio (or let it edit every brand). The same store
 * functions the CLI uses (engine/console/userCli.ts); each change audited with the admin as actor.
 * A person's mistake (a taken email, the last admin, disabling oneself) goes back to /users with a
 * message; a forged post is a 403.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { clientIp, type ApiAnswer } from '../http/api';
import type { Store } from '../store/db';
import { addUser, audit, normaliseEmail } from '../store/console';
import { keepShownOnce, setBrands, setDisabled, setRole, type UserChange } from '../store/consoleUserAdmin';
import { requireUser } from './api';
import { csrfValid } from './csrf';
import { formOutOfDate, refusalError } from './formRefusals';
import { limitedForm, readConsoleForm } from './forms';
import { HashingBusy, hashPassword } from './passwords';
import { BRAND_ID, brandList, isRole, ROLES } from './roles';
import { studioBrandIds } from './studioApi';
import { resetTotp } from './totpStore';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An admin manages accounts by hand: more than this a minute is a script or a stuck button. */
const RULE = { name: 'console-users', limit: Number(process.env.RATE_LIMIT_CONSOLE_USERS ?? 30), windowMs: 60_000 };

/** The messages /users shows after a post (by key, so no text from the request is echoed into the page). */
export const USER_NOTES = {
  added: 'Account added. Give its user the temporary password below; it is shown only this once.',
  role: 'Role changed.',
  disabled: 'Account disabled; its sessions have ended.',
  enabled: 'Account enabled.',
  totp: 'Two-step sign-in removed; its sessions have ended. The user sets it up again on /account.',
  taken: 'That email has an account already.',
  email: 'Give an email address such as name@example.com.',
  role_invalid: `The role must be one of ${ROLES.join(', ')}.`,
  missing: 'There is no account with that email.',
  last_admin: 'That is the last enabled admin: make another admin first.',
  self: 'You cannot disable your own account or take away your own admin role.',
  op: 'Unknown change.',
  link: 'Sign-in link made. Give it to its user: it signs in once, until it expires, and is shown only this once.',
  link_disabled: 'That account is disabled: enable it before making a sign-in link.',
  link_open: 'That page is not a console page: give a path such as /leads. No sign-in link was made.',
  brands: 'Brands changed.',
  brands_unknown:
    'No brand has that id: give ids the studio lists (lower-case, separated by commas), or leave the list empty for every brand. Nothing was changed.',
  busy: 'The server is busy checking sign-ins, so no account was added. Try again in a few seconds.',
  unchanged: 'Nothing changed: the account was so already.',
  brands_role: 'Only an editor is limited to some brands (an admin edits every brand, the other roles none): make the account an editor first.',
  limited: 'Too many changes to accounts in the last minute, so nothing was changed. Wait a minute and try again.',
  link_limited: 'Too many sign-in links made in the last minute, so none was made. Wait a minute and try again.',
} as const;
export type UserNote = keyof typeof USER_NOTES;

const back = (note: UserNote, more = ''): ApiAnswer => {
  const location = `/users?note=${note}${more}`;
  return { status: 303, body: { location }, headers: { Location: location } };
};
const noteOf = (r: UserChange, ok: UserNote): UserNote => (r === 'ok' ? ok : r === 'same' ? 'unchanged' : r === 'missing' ? 'missing' : 'last_admin');

/** A temporary password: 18 random bytes, 24 characters a person can type. */
export const temporaryPassword = () => randomBytes(18).toString('base64url');

export async function usersRoute(db: Store, req: IncomingMessage): Promise<ApiAnswer> {
  const form = await readConsoleForm(req);
  const who = await requireUser(db, { method: 'POST', headers: req.headers as Record<string, string | undefined>, ip: clientIp(req) }, 'users.manage');
  if ('refused' in who) throw refusalError(who);
  if (!csrfValid(who.token, form.csrf)) throw formOutOfDate();
  // the page says so (it runs no script); an API client asking for JSON gets the 429
  const limited = await limitedForm(req.headers, RULE, who.user.email, 'Too many changes to accounts', '/users?note=limited');
  if (limited) return limited;
  const actor = who.user.email;
  const raw = (form.email ?? '').trim();
  if (!EMAIL.test(raw) || raw.length > 254) return back('email');
  const email = normaliseEmail(raw);
  const self = email === normaliseEmail(actor);
  switch (form.op) {
    case 'add': {
      if (!isRole(form.role)) return back('role_invalid');
      const password = temporaryPassword();
      let passwordHash: string;
      try {
        // the same bounded queue as sign-ins: a flood of those must not turn an admin's add into a 500
        passwordHash = await hashPassword(password);
      } catch (err) {
        if (!(err instanceof HashingBusy)) throw err;
        const answer = back('busy');
        return { ...answer, headers: { ...answer.headers, 'Retry-After': '2' } };
      }
      if (!(await addUser(db, { email, role: form.role, passwordHash }))) return back('taken');
      await keepShownOnce(db, email, password, actor);
      await audit(db, { actor, action: 'user_added', target: email, detail: { role: form.role, temporaryPassword: true } });
      return back('added');
    }
    case 'role': {
      if (!isRole(form.role)) return back('role_invalid');
      if (self && form.role !== 'admin') return back('self');
      const r = await setRole(db, email, form.role);
      if (r === 'ok') await audit(db, { actor, action: 'role_changed', target: email, detail: { role: form.role } });
      return back(noteOf(r, 'role'));
    }
    case 'disable':
    case 'enable': {
      if (self) return back('self');
      const r = await setDisabled(db, email, form.op === 'disable');
      if (r === 'ok') await audit(db, { actor, action: form.op === 'disable' ? 'user_disabled' : 'user_enabled', target: email });
      return back(noteOf(r, form.op === 'disable' ? 'disabled' : 'enabled'));
    }
    case 'brands': {
      // empty: every brand; else each id must be a brand the studio lists (the unknown ones named back)
      const brands = brandList(form.brands ?? '');
      const known = new Set(await studioBrandIds(db));
      const unknown = brands.filter((b) => !known.has(b));
      if (unknown.length)
        return back('brands_unknown', unknown.every((b) => BRAND_ID.test(b)) ? `&unknown=${encodeURIComponent(unknown.slice(0, 20).join(','))}` : '');
      const r = await setBrands(db, email, brands);
      if (r === 'not-editor') return back('brands_role');
      if (r === 'ok') await audit(db, { actor, action: 'brands_changed', target: email, detail: { brands: brands.length ? brands : 'every brand' } });
      return back(noteOf(r, 'brands'));
    }
    case 'totp-reset': {
      if (!(await resetTotp(db, email))) return back('missing');
      await audit(db, { actor, action: 'totp_reset', target: email });
      return back('totp');
    }
    default:
      return back('op');
  }
}
