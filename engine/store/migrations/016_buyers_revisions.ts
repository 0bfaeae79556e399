/**
 * Documents an operator changes in the console (buyers now, brands later) are kept as revisions
 * over the files they were first read from: every save is a new row, never an update, so the
 * history is the table. (kind, key, version) is the primary key — two people saving over the
 * same version cannot both win: the second insert fails, and that is the conflict they are told of.
 */
import type { Kysely } from 'kysely';
import { notNull } from './columns';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_revisions')
    .$call(notNull('kind key version:integer document author saved_at base_hash'))
    .addPrimaryKeyConstraint('document_revisions_pk', ['kind', 'key', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('document_revisions').execute();
}
