/**
 * POST /api/console/totp, a console form post (engine/console/forms.ts) about the signed-in
 * user's second factor:
 * - `code`: the second step of signing in (the session is at stage `code` after the password):
 *   a right code, not used before, turns it into a full session under a new token; wrong codes
 *   count with the sign-in lockout (engine/console/loginLimit.ts), and a lockout ends the session.
 * - `setup`: a new secret to enrol (shown on /account as an otpauth:// URI and as text);
 * - `confirm`: a code from the app enables it (and an admin who had to enrol gets a full session).
 * Each answers 303 to the page to show next; a forged post (wrong CSRF token) is a 403. A setup or
 * confirm sent with no session goes to the sign-in page as any console form's does (SESSION_ENDED).
 */
import type { IncomingMessage } from 'node:http';
import totpSchema from '../../schemas/api/console-totp.schema.json' with { type: 'json' };
import type { ConsoleTotp } from '../../schemas/api.types';
import { ApiError, clientIp, validatorFor } from '../http/api';
import type { Store } from '../store/db';
import { audit, createSession, endSession, SESSION_TTL_MS } from '../store/console';
import { attemptKeys, busyAnswer, requireUser, reserveAttempt, sessionCookie, settleAttempt } from './api';
import { csrfValid } from './csrf';
import { formOutOfDate, refusalError } from './formRefusals';
import { readConsoleForm } from './forms';
import { afterSignIn, signInAddress } from './returnTo';
import { matchTotp, newTotpSecret } from './totp';
import { startTotpSetup, userTotp, spendTotpStep } from './totpStore';

type Answer = { status: number; body: unknown; headers?: Record<string, string> };
const see = (location: string, headers: Record<string, string> = {}): Answer => ({
  status: 303,
  body: { location },
  headers: { Location: location, ...headers },
});

/** A full session in place of the one that led to it (a new token once the second factor is proven). */
async function fullSession(db: Store, oldToken: string, userId: string, now: Date): Promise<string> {
  await endSession(db, oldToken);
  const token = await createSession(db, userId, now, SESSION_TTL_MS, 'full');
  return sessionCookie(token, SESSION_TTL_MS / 1000);
}

export async function totpRoute(db: Store, req: IncomingMessage, now = new Date()): Promise<Answer> {
  const form = await readConsoleForm(req);
  const validate = validatorFor<ConsoleTotp>(totpSchema);
  const fields = Object.fromEntries(['csrf', 'action', 'code'].filter((n) => n in form).map((n) => [n, form[n]]));
  // the sign-in's return address (the code form carries it from the sign-in page), for the code step only
  const next = form.action === 'code' ? form.next : undefined;
  if (!validate(fields)) {
    if (form.action === 'code') return see(signInAddress({ error: 'code' }, next));
    if (form.action === 'confirm') return see('/account?error=code');
    throw new ApiError(400, 'The form is not valid');
  }
  const input = fields as ConsoleTotp;
  const request = { method: 'POST', headers: req.headers as Record<string, string | undefined>, ip: clientIp(req), now };
  const who = await requireUser(db, request, 'overview.view', input.action === 'code' ? ['code'] : ['full', 'enrol']);
  if ('refused' in who) {
    if (input.action === 'code') {
      if (who.refused!.status === 401) return see(signInAddress({}, next));
    } else if (who.stage === 'code') {
      // half signed in (the code still to come): to the code prompt, then back to the account page
      return see(signInAddress({}, '/account'));
    } else if (who.refused!.status === 401) {
      // no session at all, as for any console form sent after its session ended (formRefusals.ts): the sign-in
      // page says nothing was changed, and leads back to the account page; an API client keeps its 401
      throw refusalError(who, '/account');
    }
    throw new ApiError(who.refused!.status, (who.refused!.body as { error: string }).error);
  }
  if (!csrfValid(who.token, input.csrf)) throw formOutOfDate(input.action === 'code' ? '/login' : '/account');
  const { user, token } = who;
  const totp = await userTotp(db, user.id);

  if (input.action === 'setup') {
    if (totp.enabled) return see('/account?error=enabled');
    await startTotpSetup(db, user.id, newTotpSecret(), now);
    return see('/account');
  }

  if (input.action === 'confirm') {
    if (totp.enabled) return see('/account?error=enabled');
    if (!totp.secret) return see('/account');
    const step = matchTotp(totp.secret, input.code ?? '', now.getTime(), totp.lastStep);
    if (step === undefined || !(await spendTotpStep(db, user.id, step, true))) return see('/account?error=code');
    await audit(db, { actor: user.email, action: 'totp_enrolled', target: user.email, now });
    if (user.stage === 'enrol') return see('/?status=enrolled', { 'Set-Cookie': await fullSession(db, token, user.id, now) });
    return see('/account?status=enrolled');
  }

  // The code at sign-in: limited like the password (the same records), so guessing gains nothing.
  // Counted before the code is checked (reserveAttempt): a burst of codes sent at once is limited like codes sent one by one.
  const keys = attemptKeys(user.email, request.ip);
  let reserved: Awaited<ReturnType<typeof reserveAttempt>>;
  try {
    reserved = await reserveAttempt(db, keys, now);
  } catch (err) {
    if (!busyAnswer(err)) throw err;
    return see(signInAddress({ error: 'busy' }, next), { 'Retry-After': '2' });
  }
  if ('blocked' in reserved) {
    const blocked = reserved.blocked;
    await endSession(db, token);
    const minutes = String(Math.ceil(Number(blocked.headers['Retry-After'] ?? 60) / 60));
    return see(signInAddress({ error: 'locked', minutes }, next), { 'Set-Cookie': sessionCookie('', 0) });
  }
  const step = totp.enabled && totp.secret ? matchTotp(totp.secret, input.code ?? '', now.getTime(), totp.lastStep) : undefined;
  const success = step !== undefined && (await spendTotpStep(db, user.id, step));
  await settleAttempt(db, keys, reserved.reservation, success ? 'success' : 'failure', now);
  const locked = reserved.reservation.locked;
  if (!success) {
    await audit(db, { actor: user.email, action: locked ? 'lockout' : 'totp_failed', target: user.email, now });
    if (!locked) return see(signInAddress({ error: 'code' }, next));
    await endSession(db, token);
    return see(signInAddress({ error: 'locked' }, next), { 'Set-Cookie': sessionCookie('', 0) });
  }
  await audit(db, { actor: user.email, action: 'sign_in', target: user.email, detail: { secondFactor: 'totp' }, now });
  return see(afterSignIn(next), { 'Set-Cookie': await fullSession(db, token, user.id, now) });
}
