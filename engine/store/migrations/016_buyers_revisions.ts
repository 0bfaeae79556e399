/**
 * Documents an operator changes in the console (buyers now, brands later) are kept as revisions
 * over the files they were first read from: every save is a new row, never an update, so the
 * history is the table. (kind, key, version) is the primary key — two people saving over the
 * same version cannot both win: the second insert fails, and that is the conflict they are told of.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_revisions')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('saved_at', 'text', (c) => c.notNull())
    .addColumn('base_hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_revisions_pk', ['kind', 'key', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('document_revisions').execute();
}
