/**
 * Alert rules gain what the newer kinds need (engine/console/alertRules.ts): whether a failure
 * threshold counts calls or a percentage of them (`unit`), a quiet time in minutes (no sale), and
 * a least number of visits before a brand's lead rate is judged (`minimum`). Alert messages gain
 * a channel: the webhook as before, or e-mail when an SMTP server is configured; both are
 * delivered from the same table with the same back-off.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('alert_rules')
    .addColumn('unit', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('alert_rules')
    .addColumn('window_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('alert_rules')
    .addColumn('minimum', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('alert_deliveries')
    .addColumn('channel', 'text', (c) => c.notNull().defaultTo('webhook'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('alert_deliveries').dropColumn('channel').execute();
  for (const c of ['minimum', 'window_minutes', 'unit']) await db.schema.alterTable('alert_rules').dropColumn(c).execute();
}
