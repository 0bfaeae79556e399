/**
 * Console accounts as an admin manages them from the console (engine/console/userRoutes.ts):
 * the list with each account's state, a role change, disabling (its sessions end at once) and
 * enabling, and a new account's temporary password kept sealed until the admin who made it has
 * seen it once. The last enabled admin can neither lose the role, be disabled nor be removed: the
 * console would have no one left to manage it (the CLI can still add an admin from the server's
 * terminal, but nobody would know to).
 */
import { openText, sealText } from '../keys/sealing';
import type { Role } from '../console/roles';
import type { Store } from './db';
import { normaliseEmail } from './console';

export interface UserRow {
  email: string;
  role: string;
  created_at: string;
  updated_at: string;
  disabled_at: string | null;
  totp_enabled: number;
  /** an editor's brands, comma-separated; null: every brand */
  brands: string | null;
}

export const userRows = (db: Store): Promise<UserRow[]> =>
  db.selectFrom('console_users').select(['email', 'role', 'created_at', 'updated_at', 'disabled_at', 'totp_enabled', 'brands']).orderBy('email').execute();

/** 'same': the account was so already (nothing written, nothing to audit). */
export type UserChange = 'ok' | 'same' | 'missing' | 'last-admin';

type Trx = Parameters<Parameters<ReturnType<Store['transaction']>['execute']>[0]>[0];

/** Whether another enabled admin than `id` exists. */
async function anotherAdmin(trx: Trx, id: string): Promise<boolean> {
  const other = await trx
    .selectFrom('console_users')
    .select('id')
    .where('role', '=', 'admin')
    .where('disabled_at', 'is', null)
    .where('id', '!=', id)
    .executeTakeFirst();
  return !!other;
}

export function setRole(db: Store, email: string, role: Role, now = new Date()): Promise<UserChange> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('console_users').select(['id', 'role', 'disabled_at']).where('email', '=', normaliseEmail(email)).executeTakeFirst();
    if (!user) return 'missing';
    if (user.role === role) return 'same';
    if (user.role === 'admin' && role !== 'admin' && !user.disabled_at && !(await anotherAdmin(trx, user.id))) return 'last-admin';
    await trx.updateTable('console_users').set({ role, updated_at: now.toISOString() }).where('id', '=', user.id).execute();
    return 'ok';
  });
}

/**
 * Limits an editor to some brands in the studio, or (none given) lets it edit every brand. Only an
 * editor's account is limited: an admin edits every brand and the other roles none.
 */
export async function setBrands(db: Store, email: string, brands: readonly string[], now = new Date()): Promise<UserChange | 'not-editor'> {
  const user = await db.selectFrom('console_users').select(['id', 'role', 'brands']).where('email', '=', normaliseEmail(email)).executeTakeFirst();
  if (!user) return 'missing';
  if (user.role !== 'editor') return 'not-editor';
  if ((user.brands ?? '') === brands.join(',')) return 'same';
  await db
    .updateTable('console_users')
    .set({ brands: brands.length ? brands.join(',') : null, updated_at: now.toISOString() })
    .where('id', '=', user.id)
    .execute();
  return 'ok';
}

/** Disables (ending every session of the account in the same transaction) or enables an account. */
export function setDisabled(db: Store, email: string, disabled: boolean, now = new Date()): Promise<UserChange> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('console_users').select(['id', 'role', 'disabled_at']).where('email', '=', normaliseEmail(email)).executeTakeFirst();
    if (!user) return 'missing';
    if (!!user.disabled_at === disabled) return 'same';
    if (disabled && user.role === 'admin' && !(await anotherAdmin(trx, user.id))) return 'last-admin';
    await trx
      .updateTable('console_users')
      .set({ disabled_at: disabled ? now.toISOString() : null, updated_at: now.toISOString() })
      .where('id', '=', user.id)
      .execute();
    if (disabled) await trx.deleteFrom('console_sessions').where('user_id', '=', user.id).execute();
    return 'ok';
  });
}

/** Removes an account and its sessions, unless it is the last enabled admin. */
export function removeAccount(db: Store, email: string): Promise<UserChange> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('console_users').select(['id', 'role', 'disabled_at']).where('email', '=', normaliseEmail(email)).executeTakeFirst();
    if (!user) return 'missing';
    if (user.role === 'admin' && !user.disabled_at && !(await anotherAdmin(trx, user.id))) return 'last-admin';
    await trx.deleteFrom('console_sessions').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('console_users').where('id', '=', user.id).execute();
    return 'ok';
  });
}

/** Keeps a new account's temporary password, sealed, for the admin `shownTo` to see once. */
export async function keepShownOnce(db: Store, email: string, password: string, shownTo: string): Promise<void> {
  await db
    .updateTable('console_users')
    .set({ shown_once: sealText(JSON.stringify({ to: normaliseEmail(shownTo), password })) })
    .where('email', '=', normaliseEmail(email))
    .execute();
}

/** The temporary passwords waiting for `admin`, removed from the store as they are read: shown once. */
export async function takeShownOnce(db: Store, admin: string): Promise<{ email: string; password: string }[]> {
  const rows = await db.selectFrom('console_users').select(['id', 'email', 'shown_once']).where('shown_once', 'is not', null).execute();
  const mine: { email: string; password: string }[] = [];
  for (const r of rows) {
    let held: { to?: string; password?: string } = {};
    try {
      held = JSON.parse(openText(r.shown_once!)) as typeof held;
    } catch {
      // sealed with a key no longer configured: it cannot be shown, so it is dropped
      await db.updateTable('console_users').set({ shown_once: null }).where('id', '=', r.id).execute();
      continue;
    }
    if (held.to !== normaliseEmail(admin) || typeof held.password !== 'string') continue;
    // Only the request that clears it shows it: two tabs reading at once do not both see it.
    const cleared = await db
      .updateTable('console_users')
      .set({ shown_once: null })
      .where('id', '=', r.id)
      .where('shown_once', '=', r.shown_once)
      .executeTakeFirst();
    if (Number(cleared.numUpdatedRows) > 0) mine.push({ email: r.email, password: held.password });
  }
  return mine;
}
