/**
 * The console's second factor: a user's TOTP secret (sealed like a lead's sensitive fields,
 * engine/keys/sealing.ts; set but not yet enabled while they enrol), whether it is enabled, and
 * the last time step a code was accepted for (so a code cannot be used twice). A session has a
 * stage: `full`, or `code` (the password was right, the code is still to come) or `enrol` (an
 * admin in a deployment who must set up an authenticator before anything else).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('console_users').addColumn('totp_secret', 'text').execute();
  await db.schema
    .alterTable('console_users')
    .addColumn('totp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('console_users')
    .addColumn('totp_last_step', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('console_sessions')
    .addColumn('stage', 'text', (c) => c.notNull().defaultTo('full'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('console_sessions').dropColumn('stage').execute();
  await db.schema.alterTable('console_users').dropColumn('totp_last_step').execute();
  await db.schema.alterTable('console_users').dropColumn('totp_enabled').execute();
  await db.schema.alterTable('console_users').dropColumn('totp_secret').execute();
}
