/**
 * A console user's second factor in the store: the secret sealed at rest (engine/keys/sealing.ts,
 * the lead keys), enabled once a code from the app confirmed it, and the last time step a code was
 * accepted for. Accepting a code moves that step forward in one conditional update, so the same
 * code cannot be used twice even by two instances at once. Server-only.
 */
import { openText, sealText } from '../keys/sealing';
import { sql } from 'kysely';
import type { Store } from '../store/db';
import { normaliseEmail } from '../store/console';

export interface UserTotp {
  enabled: boolean;
  /** the secret, enrolled or being enrolled; undefined when none was made */
  secret?: Buffer;
  lastStep: number;
}

export async function userTotp(db: Store, userId: string): Promise<UserTotp> {
  const row = await db.selectFrom('console_users').select(['totp_secret', 'totp_enabled', 'totp_last_step']).where('id', '=', userId).executeTakeFirst();
  if (!row) return { enabled: false, lastStep: 0 };
  return {
    enabled: Number(row.totp_enabled) === 1,
    ...(row.totp_secret ? { secret: Buffer.from(openText(row.totp_secret), 'base64') } : {}),
    lastStep: Number(row.totp_last_step),
  };
}

/** Keeps a new secret to enrol (not yet enabled); false when the user has one enabled already. */
export async function startTotpSetup(db: Store, userId: string, secret: Buffer, now = new Date()): Promise<boolean> {
  const r = await db
    .updateTable('console_users')
    .set({ totp_secret: sealText(secret.toString('base64')), totp_last_step: 0, updated_at: now.toISOString() })
    .where('id', '=', userId)
    .where('totp_enabled', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Marks `step` used (and, with `enable`, turns the second factor on): true only when the step is
 * later than the last one used, so a code is good once.
 */
export async function spendTotpStep(db: Store, userId: string, step: number, enable = false): Promise<boolean> {
  const r = await db
    .updateTable('console_users')
    .set({ totp_last_step: step, ...(enable ? { totp_enabled: 1 } : {}) })
    .where('id', '=', userId)
    .where('totp_last_step', '<', step)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Removes a user's second factor (a lost phone, from the terminal), ends their sessions and lifts
 * their account's sign-in lockout; false when there is no such user.
 */
export async function resetTotp(db: Store, email: string, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('console_users').select('id').where('email', '=', normaliseEmail(email)).executeTakeFirst();
    if (!user) return false;
    await trx
      .updateTable('console_users')
      .set({ totp_secret: null, totp_enabled: 0, totp_last_step: 0, updated_at: now.toISOString() })
      .where('id', '=', user.id)
      .execute();
    await trx.deleteFrom('console_sessions').where('user_id', '=', user.id).execute();
    // The account's lock from anywhere and from each network (engine/console/api.ts attemptKeys).
    const account = `email:${normaliseEmail(email)}`;
    await trx
      .deleteFrom('console_login_attempts')
      .where((eb) => eb.or([eb('key', '=', account), eb(sql<string>`substr(key, 1, ${account.length + 1})`, '=', `${account}|`)]))
      .execute();
    return true;
  });
}
