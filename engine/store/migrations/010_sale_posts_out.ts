/**
 * The posts still out to a buyer (timeline rows `sending`): counted with its sales each time a
 * post to a capped buyer is reserved (engine/store/sales.ts reservePost). A partial index keeps
 * that count to the few rows in flight, however long the timeline grows.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index sale_events_sending on sale_events (buyer_id) where outcome = 'sending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index sale_events_sending`.execute(db);
}
