/**
 * The overview's money joins each sale (and return) of the range to its lead and the lead's visit
 * for the dimensions (engine/traffic/moneyQuery.ts). Those rows are wide — a lead carries its
 * sealed personal data, a visit its referrer and every utm_* — so reading 20,000 of each, scattered
 * over the tables, cost about 300 ms on SQLite with a million events. These indexes hold exactly
 * the columns the query reads, in the join's order, so it is answered from the indexes alone and
 * gives the same rows: nothing is copied, nothing can disagree with the sale records.
 *
 * SQLite's planner, without statistics, prefers each table's unique key (one row, it reckons) to
 * a covering index and reads the wide rows anyway; ANALYZE of these four tables tells it the
 * covering index finds one row too. PostgreSQL keeps its statistics itself (autovacuum).
 */
import { sql, type Kysely } from 'kysely';
import { isPostgresStore } from '../trafficPartitions';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('lead_sales_money').on('lead_sales').columns(['decided_at', 'status', 'lead_id', 'price_cents']).execute();
  await db.schema.createIndex('lead_returns_money').on('lead_returns').columns(['created_at', 'lead_id', 'price_cents']).execute();
  await db.schema.createIndex('leads_money').on('leads').columns(['id', 'visit_id', 'brand', 'device', 'state']).execute();
  await db.schema.createIndex('traffic_visits_money').on('traffic_visits').columns(['id', 'brand', 'campaign', 'source', 'landing_path', 'device']).execute();
  if (!isPostgresStore(db)) for (const table of ['lead_sales', 'lead_returns', 'leads', 'traffic_visits']) await sql`analyze ${sql.table(table)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['traffic_visits_money', 'leads_money', 'lead_returns_money', 'lead_sales_money']) await db.schema.dropIndex(name).execute();
}
