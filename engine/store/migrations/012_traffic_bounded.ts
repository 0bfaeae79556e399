/**
 * Funnel counts that a client cannot inflate, and raw events that are cheap to expire:
 * - traffic_visit_stages: one row per (visit, stage) counted; the first event of a stage for a
 *   visit is counted in the rollups, a later one is stored with `repeated` = 1 and not counted;
 * - traffic_refused: events refused past the ingest budget (or dropped by a full writer queue),
 *   by hour and brand, so the overview can say when its counts are short;
 * - on PostgreSQL, traffic_events partitioned by day (created_at, collation "C" so the ISO text
 *   compares byte for byte): retention drops whole days' partitions instead of deleting rows;
 *   existing rows are moved into their day's partition. SQLite keeps one table (deleted in
 *   bounded batches, ../traffic.ts).
 */
import { sql, type Kysely } from 'kysely';
import { ensureEventPartitions, isPostgresStore } from '../trafficPartitions';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('traffic_visit_stages')
    .addColumn('visit_id', 'text', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('traffic_visit_stages_key', ['visit_id', 'stage'])
    .execute();
  await db.schema.createIndex('traffic_visit_stages_created_at').on('traffic_visit_stages').column('created_at').execute();
  await db.schema
    .createTable('traffic_refused')
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('traffic_refused_key', ['hour', 'brand'])
    .execute();

  if (!isPostgresStore(db)) {
    await db.schema
      .alterTable('traffic_events')
      .addColumn('repeated', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    return;
  }
  await sql`DROP INDEX traffic_events_created_at`.execute(db);
  await sql`DROP INDEX traffic_events_visit`.execute(db);
  await sql`ALTER TABLE traffic_events RENAME TO traffic_events_unpartitioned`.execute(db);
  await sql`ALTER TABLE traffic_events_unpartitioned RENAME CONSTRAINT traffic_events_pkey TO traffic_events_unpartitioned_pkey`.execute(db);
  await sql`
    CREATE TABLE traffic_events (
      id text NOT NULL,
      visit_id text NOT NULL,
      metric text NOT NULL,
      path text NOT NULL,
      value integer NOT NULL,
      brand text NOT NULL,
      campaign text NOT NULL,
      source text NOT NULL,
      landing text NOT NULL,
      device text NOT NULL,
      state text NOT NULL,
      created_at text COLLATE "C" NOT NULL,
      repeated integer NOT NULL DEFAULT 0,
      PRIMARY KEY (id, created_at)
    ) PARTITION BY RANGE (created_at)`.execute(db);
  await sql`CREATE INDEX traffic_events_created_at ON traffic_events (created_at)`.execute(db);
  await sql`CREATE INDEX traffic_events_visit ON traffic_events (visit_id)`.execute(db);
  const days = await sql<{ day: string }>`SELECT DISTINCT substr(created_at, 1, 10) AS day FROM traffic_events_unpartitioned`.execute(db);
  await ensureEventPartitions(
    db,
    days.rows.map((r) => r.day),
  );
  await sql`
    INSERT INTO traffic_events (id, visit_id, metric, path, value, brand, campaign, source, landing, device, state, created_at)
    SELECT id, visit_id, metric, path, value, brand, campaign, source, landing, device, state, created_at FROM traffic_events_unpartitioned`.execute(db);
  await sql`DROP TABLE traffic_events_unpartitioned`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('traffic_refused').execute();
  await db.schema.dropTable('traffic_visit_stages').execute();
  if (!isPostgresStore(db)) {
    await db.schema.alterTable('traffic_events').dropColumn('repeated').execute();
    return;
  }
  await sql`ALTER TABLE traffic_events RENAME TO traffic_events_partitioned`.execute(db);
  await sql`DROP INDEX traffic_events_created_at`.execute(db);
  await sql`DROP INDEX traffic_events_visit`.execute(db);
  await sql`CREATE TABLE traffic_events (LIKE traffic_events_partitioned)`.execute(db);
  await sql`ALTER TABLE traffic_events DROP COLUMN repeated`.execute(db);
  await sql`ALTER TABLE traffic_events ADD PRIMARY KEY (id)`.execute(db);
  await sql`
    INSERT INTO traffic_events SELECT id, visit_id, metric, path, value, brand, campaign, source, landing, device, state, created_at
    FROM traffic_events_partitioned`.execute(db);
  await sql`DROP TABLE traffic_events_partitioned`.execute(db);
  await sql`CREATE INDEX traffic_events_created_at ON traffic_events (created_at)`.execute(db);
  await sql`CREATE INDEX traffic_events_visit ON traffic_events (visit_id)`.execute(db);
}
