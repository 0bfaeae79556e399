/** Session traces (SPEC §7): one row per session uuid; text columns, ISO 8601 created_at (see ../db.ts). */
import type { Kysely } from 'kysely';
import { keyedTable } from './columns';

export async function up(db: Kysely<unknown>): Promise<void> {
  await keyedTable(db, 'session_traces', 'uuid', 'brand source1 source2 click_id ga_client_id user_agent ip created_at').execute();
  await db.schema.createIndex('session_traces_created_at').on('session_traces').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('session_traces').execute();
}
