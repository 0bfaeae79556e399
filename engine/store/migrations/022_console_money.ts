/**
 * The console's money cuts, settings, alerts and sign-in links.
 *
 * - The overview's money query now also splits by sub-id, loan kind and buyer and counts leads no
 *   buyer took (engine/traffic/moneyQuery.ts); its covering indexes (015) are widened by those
 *   columns so it still reads indexes only. The cuts' leads are read by creation time with the
 *   same columns, and each buyer's offers (pings and posts, answered, with their latency) from
 *   sale_events by time, each from an index that holds what it reads.
 * - Each console user keeps a time zone and a currency for the figures they see ('' = UTC, USD).
 * - currency_rates: what one unit of a currency is worth in US dollars, set by an admin (never
 *   fetched), in millionths so sums stay exact.
 * - alert_rules, alert_episodes (one row per rule and subject, its latest episode: opening it is a
 *   conditional write only one instance wins, so an alert is sent once when it opens and once when
 *   it resolves) and alert_deliveries (the webhook messages, retried with
 *   the outbox's back-off: the lead outbox's rows belong to a lead, these do not).
 * - console_sign_in_links: a one-time link's token SHA-256 only, its expiry and when it was used; the
 *   link itself sealed until the admin who made it has seen it once.
 */
import { sql, type Kysely } from 'kysely';
import { keyedTable, notNull } from './columns';
import { isPostgresStore } from '../trafficPartitions';

/** Each covering index of 015: its columns there, and the columns it gains. */
const WIDENED: [name: string, table: string, before: string[], added: string[]][] = [
  ['lead_sales_money', 'lead_sales', ['decided_at', 'status', 'lead_id', 'price_cents'], ['buyer_id']],
  ['lead_returns_money', 'lead_returns', ['created_at', 'lead_id', 'price_cents'], ['buyer_id']],
  ['leads_money', 'leads', ['id', 'visit_id', 'brand', 'device', 'state'], ['source2', 'loan_kind', 'currency']],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, before, added] of WIDENED) {
    await db.schema.dropIndex(name).execute();
    await db.schema
      .createIndex(name)
      .on(table)
      .columns([...before, ...added])
      .execute();
  }
  await db.schema.createIndex('leads_cuts').on('leads').columns(['created_at', 'visit_id', 'brand', 'device', 'source2', 'loan_kind', 'id']).execute();
  await db.schema.createIndex('sale_events_offers').on('sale_events').columns(['at', 'step', 'buyer_id', 'outcome', 'lead_id', 'latency_ms']).execute();
  if (!isPostgresStore(db)) for (const table of ['lead_sales', 'lead_returns', 'leads', 'sale_events']) await sql`analyze ${sql.table(table)}`.execute(db);

  await db.schema
    .alterTable('console_users')
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('console_users')
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await keyedTable(db, 'currency_rates', 'currency', 'usd_micros:bigint set_by set_at').execute();

  await keyedTable(db, 'alert_rules', 'id', 'kind subject threshold:bigint window_hours:integer created_by created_at').execute();
  await db.schema
    .createTable('alert_episodes')
    .$call(notNull('rule_id subject state opened_at message'))
    .addColumn('resolved_at', 'text')
    .addPrimaryKeyConstraint('alert_episodes_pk', ['rule_id', 'subject'])
    .execute();
  await db.schema.createIndex('alert_episodes_open').on('alert_episodes').columns(['state', 'rule_id', 'subject']).execute();
  await keyedTable(db, 'alert_deliveries', 'id', 'body status attempts:integer next_attempt_at created_at').addColumn('last_error', 'text').execute();
  await db.schema.createIndex('alert_deliveries_due').on('alert_deliveries').columns(['status', 'next_attempt_at']).execute();

  await keyedTable(db, 'console_sign_in_links', 'token_hash', 'user_id created_by created_at expires_at')
    .addColumn('used_at', 'text')
    .addColumn('shown_once', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['console_sign_in_links', 'alert_deliveries', 'alert_episodes', 'alert_rules', 'currency_rates']) await db.schema.dropTable(t).execute();
  await db.schema.alterTable('console_users').dropColumn('currency').execute();
  await db.schema.alterTable('console_users').dropColumn('time_zone').execute();
  await db.schema.dropIndex('sale_events_offers').execute();
  await db.schema.dropIndex('leads_cuts').execute();
  for (const [name, table, before] of WIDENED) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on(table).columns(before).execute();
  }
}
