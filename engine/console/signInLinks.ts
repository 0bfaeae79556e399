/**
 * One-time sign-in links: an admin makes one for a user (for a new account, or one who lost their
 * password); it signs that user in once, within SIGN_IN_LINK_TTL_MIN minutes (default 60), and
 * never again. Only the token's SHA-256 is stored (as for sessions); the link itself is kept sealed
 * until the admin who made it has seen it once on the Users page. Opening the link shows a button
 * (a link preview or a mail scanner that fetches it spends nothing): the POST spends it, by a
 * conditional write only one request wins. The session it starts is what a password sign-in
 * would start: a user with a second factor still gives the code, an admin without one enrols.
 * The admin may name the console page the link opens at (a return address, engine/console/returnTo.ts):
 * it is sealed with the link and rides in its `?next=`, so the sign-in lands there. Making and
 * using a link are audited.
 */
import { randomBytes } from 'node:crypto';
import type { Store } from '../store/db';
import { audit, createSession, findUser, normaliseEmail, SECOND_STEP_TTL_MS, SESSION_TTL_MS, tokenHash, type SessionStage } from '../store/console';
import { openText, sealText } from '../keys/sealing';
import { isRole } from './roles';
import { totpRequired } from './totp';

export const linkTtlMs = (env: Record<string, string | undefined> = process.env): number =>
  Math.min(Math.max(Number(env.SIGN_IN_LINK_TTL_MIN ?? 60) || 60, 1), 7 * 24 * 60) * 60_000;

/** A link's token: 32 random bytes, 43 URL-safe characters. */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A link for `email`, made by `actor`, opening at `next` (a return address already checked by returnPath; none: the overview). */
export async function createSignInLink(db: Store, email: string, actor: string, now = new Date(), next?: string): Promise<'ok' | 'missing' | 'disabled'> {
  const user = await findUser(db, email);
  if (!user) return 'missing';
  if (user.disabled_at) return 'disabled';
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(now.getTime() + linkTtlMs());
  await db
    .insertInto('console_sign_in_links')
    .values({
      token_hash: tokenHash(token),
      user_id: user.id,
      created_by: normaliseEmail(actor),
      created_at: now.toISOString(),
      expires_at: expires.toISOString(),
      shown_once: sealText(JSON.stringify({ token, email: user.email, ...(next ? { next } : {}) })),
    })
    .execute();
  await audit(db, {
    actor,
    action: 'sign_in_link_created',
    target: user.email,
    detail: { expiresAt: expires.toISOString(), ...(next ? { opens: next } : {}) },
    now,
  });
  return 'ok';
}

export type ShownLink = { email: string; token: string; expiresAt: string; next?: string };

/** The links this admin made and has not seen yet (each given once, then forgotten), with the page each opens at, if one was named. */
export async function takeShownLinks(db: Store, admin: string): Promise<ShownLink[]> {
  const rows = await db
    .selectFrom('console_sign_in_links')
    .select(['token_hash', 'shown_once', 'expires_at'])
    .where('created_by', '=', normaliseEmail(admin))
    .where('shown_once', 'is not', null)
    .execute();
  const out: ShownLink[] = [];
  for (const r of rows) {
    const taken = await db
      .updateTable('console_sign_in_links')
      .set({ shown_once: null })
      .where('token_hash', '=', r.token_hash)
      .where('shown_once', '=', r.shown_once)
      .executeTakeFirst();
    if (!Number(taken.numUpdatedRows)) continue;
    const held = JSON.parse(openText(r.shown_once!)) as { token: string; email: string; next?: string };
    out.push({ ...held, expiresAt: r.expires_at });
  }
  return out;
}

export type LinkUse = { ok: true; token: string; stage: SessionStage; ttlMs: number; email: string } | { ok: false };

/** Spends a link: a session for its user, once, before it expires, while the account is enabled. */
export async function spendSignInLink(db: Store, token: string, now = new Date()): Promise<LinkUse> {
  if (!LINK_TOKEN.test(token)) return { ok: false };
  const hash = tokenHash(token);
  const spent = await db
    .updateTable('console_sign_in_links')
    .set({ used_at: now.toISOString(), shown_once: null })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (!Number(spent.numUpdatedRows)) return { ok: false };
  const link = await db.selectFrom('console_sign_in_links').select('user_id').where('token_hash', '=', hash).executeTakeFirstOrThrow();
  const user = await db.selectFrom('console_users').selectAll().where('id', '=', link.user_id).executeTakeFirst();
  if (!user || user.disabled_at || !isRole(user.role)) return { ok: false };
  const stage: SessionStage = Number(user.totp_enabled) === 1 ? 'code' : totpRequired(user.role) ? 'enrol' : 'full';
  const ttlMs = stage === 'full' ? SESSION_TTL_MS : SECOND_STEP_TTL_MS;
  const session = await createSession(db, user.id, now, ttlMs, stage);
  await audit(db, { actor: user.email, action: 'sign_in_link_used', target: user.email, detail: { stage }, now });
  return { ok: true, token: session, stage, ttlMs, email: user.email };
}
