/**
 * Console accounts managed from the console: `disabled_at` (a disabled account signs in to
 * nothing and its sessions are gone), and `shown_once` — a new account's temporary password,
 * sealed (engine/keys/sealing.ts), kept only until the admin who made it has seen it once.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('console_users').addColumn('disabled_at', 'text').execute();
  await db.schema.alterTable('console_users').addColumn('shown_once', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('console_users').dropColumn('shown_once').execute();
  await db.schema.alterTable('console_users').dropColumn('disabled_at').execute();
}
