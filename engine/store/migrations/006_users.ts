/**
 * Console accounts: users (scrypt password hashes, engine/console/passwords.ts), sessions (only
 * a hash of the token is stored, so a copy of the database signs no one in), the audit log, and
 * the sign-in attempts that drive the lockout (kept here so several instances share them).
 */
import type { Kysely } from 'kysely';
import { keyedTable, notNull } from './columns';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('console_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .$call(notNull('role password_hash created_at updated_at'))
    .execute();
  await db.schema
    .createTable('console_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('console_users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_sessions_user').on('console_sessions').column('user_id').execute();
  await keyedTable(db, 'console_audit', 'id', 'at actor action target detail').execute();
  await db.schema.createIndex('console_audit_at').on('console_audit').column('at').execute();
  await keyedTable(db, 'console_login_attempts', 'key', 'failures:integer window_start locked_until').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('console_login_attempts').execute();
  await db.schema.dropTable('console_audit').execute();
  await db.schema.dropTable('console_sessions').execute();
  await db.schema.dropTable('console_users').execute();
}
