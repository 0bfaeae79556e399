/**
 * Where a lead came from: the host it was posted on and that host's environment
 * ('production', 'test' for the dev./test123. hosts, 'development' for *.localhost). Leads from
 * before this migration were all taken as production leads; they keep that.
 * Delivery refusals need no column: a refused outbox row has status 'rejected' and the buyer's
 * reason in last_error.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('leads')
    .addColumn('host', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('leads')
    .addColumn('environment', 'text', (c) => c.notNull().defaultTo('production'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('leads').dropColumn('environment').execute();
  await db.schema.alterTable('leads').dropColumn('host').execute();
}
