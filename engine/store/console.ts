/**
 * Console accounts in the store: users, sessions (the token's SHA-256 only), the audit log and
 * sign-in attempt records. Emails are kept lower-case and trimmed; one account per email.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ColumnType } from 'kysely';
import type { Store } from './db';
import type { Role } from '../console/roles';
import type { AttemptRecord } from '../console/loginLimit';

export interface ConsoleUsersTable {
  id: string;
  email: string;
  role: string;
  password_hash: string;
  /** the TOTP secret, sealed (engine/console/totpStore.ts); null without one */
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 once a code confirmed the secret */
  totp_enabled: ColumnType<number, number | undefined, number>;
  /** the last TOTP time step a code was accepted for (a code is good once) */
  totp_last_step: ColumnType<number, number | undefined, number>;
  /** when an admin disabled the account (migration 014); null while it may sign in */
  disabled_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** a new account's temporary password, sealed, until the admin who made it has seen it once (engine/store/consoleUserAdmin.ts) */
  shown_once: ColumnType<string | null, string | null | undefined, string | null>;
  /** an editor's brands in the studio, comma-separated; null or empty: every brand (migration 021) */
  brands: ColumnType<string | null, string | null | undefined, string | null>;
  /** the IANA zone the user's figures are grouped in (migration 022); '' = UTC */
  time_zone: ColumnType<string, string | undefined, string>;
  /** the currency the user's money is shown in; '' = US dollars */
  currency: ColumnType<string, string | undefined, string>;
  created_at: string;
  updated_at: string;
}
export interface ConsoleSessionsTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  /** full; code: the password was right, the TOTP code is still to come; enrol: may only set up TOTP */
  stage: ColumnType<SessionStage, SessionStage | undefined, SessionStage>;
}

export type SessionStage = 'full' | 'code' | 'enrol';
/** How long the step between the password and the code (or a required enrolment) may take. */
export const SECOND_STEP_TTL_MS = 10 * 60_000;
export interface ConsoleAuditTable {
  id: string;
  at: string;
  /** the acting user's email, or "cli" / "anonymous" */
  actor: string;
  action: string;
  target: string;
  /** JSON */
  detail: string;
}
export interface ConsoleLoginAttemptsTable {
  key: string;
  failures: number;
  window_start: string;
  locked_until: string;
}

export type AuditAction =
  | 'sign_in'
  | 'sign_in_failed'
  | 'lockout'
  | 'sign_out'
  | 'reveal'
  | 'form_trace'
  | 'cost_import'
  | 'export'
  | 'user_added'
  | 'user_removed'
  | 'password_reset'
  | 'totp_enrolled'
  | 'totp_failed'
  | 'totp_reset'
  | 'revision_saved'
  | 'brand_draft_saved'
  | 'brand_published'
  | 'brand_scheduled'
  | 'brand_restored'
  | 'brand_logo_uploaded'
  | 'role_changed'
  | 'brands_changed'
  | 'user_disabled'
  | 'user_enabled'
  | 'lead_released'
  | 'lead_rejected'
  | 'currency_rate_set'
  | 'settings_changed'
  | 'alert_rule_added'
  | 'alert_rule_removed'
  | 'sign_in_link_created'
  | 'sign_in_link_used'
  | 'experiment_paused'
  | 'experiment_resumed'
  | 'experiment_stopped'
  | 'experiment_weights_set';

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
const newId = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Records an entry; its id (a page can show the entry a post made). */
/*
 * An audit entry's id sorts in the order the entries were written (within a process): the time in
 * milliseconds (11 hex digits), a per-process count (3), then random bytes (10); 24 hex digits after
 * "au", as before. The audit page lists entries by time, then id, newest first: entries written in
 * the same millisecond (a script's, one action's several) come out in the order they were written,
 * not in the order of random ids.
 */
let auditSeq = 0;
const newAuditId = (): string => {
  auditSeq = (auditSeq + 1) % 0x1000;
  return `au${Date.now().toString(16).padStart(11, '0')}${auditSeq.toString(16).padStart(3, '0')}${randomBytes(5).toString('hex')}`;
};

export async function audit(db: Store, entry: { actor: string; action: AuditAction; target?: string; detail?: object; now?: Date }): Promise<string> {
  const id = newAuditId();
  await db
    .insertInto('console_audit')
    .values({
      id,
      at: (entry.now ?? new Date()).toISOString(),
      actor: entry.actor,
      action: entry.action,
      target: entry.target ?? '',
      detail: JSON.stringify(entry.detail ?? {}),
    })
    .execute();
  return id;
}

/** Adds a user; false when the email has an account already. */
export async function addUser(db: Store, user: { email: string; role: Role; passwordHash: string; now?: Date; brands?: readonly string[] }): Promise<boolean> {
  const at = (user.now ?? new Date()).toISOString();
  const r = await db
    .insertInto('console_users')
    .values({
      id: newId('us'),
      email: normaliseEmail(user.email),
      role: user.role,
      password_hash: user.passwordHash,
      created_at: at,
      updated_at: at,
      ...(user.brands?.length ? { brands: user.brands.join(',') } : {}),
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export const findUser = (db: Store, email: string) => db.selectFrom('console_users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();

export const listUsers = (db: Store) =>
  db.selectFrom('console_users').select(['email', 'role', 'brands', 'created_at', 'updated_at']).orderBy('email').execute();

/** Removes a user and their sessions; false when there was none. */
export async function removeUser(db: Store, email: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('console_users').select('id').where('email', '=', normaliseEmail(email)).executeTakeFirst();
    if (!user) return false;
    await trx.deleteFrom('console_sessions').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('console_users').where('id', '=', user.id).execute();
    return true;
  });
}

/** Sets a new password hash and signs the user out everywhere; false when there is no such user. */
export async function resetPassword(db: Store, email: string, passwordHash: string, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('console_users').select('id').where('email', '=', normaliseEmail(email)).executeTakeFirst();
    if (!user) return false;
    await trx.updateTable('console_users').set({ password_hash: passwordHash, updated_at: now.toISOString() }).where('id', '=', user.id).execute();
    await trx.deleteFrom('console_sessions').where('user_id', '=', user.id).execute();
    return true;
  });
}

export const SESSION_TTL_MS = 8 * 3600_000;

/** A new session for the user: the token to put in the cookie (only its hash is stored). */
export async function createSession(db: Store, userId: string, now = new Date(), ttlMs = SESSION_TTL_MS, stage: SessionStage = 'full'): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('console_sessions')
    .values({ token_hash: tokenHash(token), user_id: userId, created_at: now.toISOString(), expires_at: new Date(now.getTime() + ttlMs).toISOString(), stage })
    .execute();
  return token;
}

/** The signed-in user of a session token, unless it expired or was removed. */
export async function sessionUser(db: Store, token: string, now = new Date()) {
  if (!token) return undefined;
  return (
    db
      .selectFrom('console_sessions')
      .innerJoin('console_users', 'console_users.id', 'console_sessions.user_id')
      .select([
        'console_users.id',
        'console_users.email',
        'console_users.role',
        'console_users.brands',
        'console_sessions.expires_at',
        'console_sessions.stage',
      ])
      .where('console_sessions.token_hash', '=', tokenHash(token))
      .where('console_sessions.expires_at', '>', now.toISOString())
      // a disabled account's sessions are deleted as it is disabled; this holds even for one made in between
      .where('console_users.disabled_at', 'is', null)
      .executeTakeFirst()
  );
}

export async function endSession(db: Store, token: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('token_hash', '=', tokenHash(token)).execute();
}

export async function loadAttempts(db: Store, key: string): Promise<AttemptRecord> {
  const r = await db.selectFrom('console_login_attempts').selectAll().where('key', '=', key).executeTakeFirst();
  return r
    ? { failures: Number(r.failures), windowStart: Date.parse(r.window_start), lockedUntil: Date.parse(r.locked_until) || 0 }
    : { failures: 0, windowStart: 0, lockedUntil: 0 };
}

export async function saveAttempts(db: Store, key: string, rec: AttemptRecord): Promise<void> {
  const row = { key, failures: rec.failures, window_start: new Date(rec.windowStart).toISOString(), locked_until: new Date(rec.lockedUntil).toISOString() };
  await db
    .insertInto('console_login_attempts')
    .values(row)
    .onConflict((oc) => oc.column('key').doUpdateSet({ failures: row.failures, window_start: row.window_start, locked_until: row.locked_until }))
    .execute();
}
