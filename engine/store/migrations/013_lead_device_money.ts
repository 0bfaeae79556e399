/**
 * The overview's money comes from the sale records joined to their lead and the lead's visit
 * (engine/traffic/moneyQuery.ts). A lead without a visit (a direct post, a visit id nobody
 * stored) still has a device class, as its "stored" event had: the lead keeps it in `device`,
 * filled here for the leads stored before from their user agent. The sales are read by the day
 * they were decided and the returns by the day they were made, so both get an index on that time.
 */
import { sql, type Kysely } from 'kysely';
import { deviceClass } from '../trafficRules';

const CHUNK = 500;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('leads')
    .addColumn('device', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  let after = '';
  for (;;) {
    const { rows } = await sql<{ id: string; user_agent: string }>`select id, user_agent from leads where id > ${after} order by id limit ${CHUNK}`.execute(db);
    if (!rows.length) break;
    const byDevice = new Map<string, string[]>();
    for (const r of rows) byDevice.set(deviceClass(r.user_agent), [...(byDevice.get(deviceClass(r.user_agent)) ?? []), r.id]);
    for (const [device, ids] of byDevice) await sql`update leads set device = ${device} where id in (${sql.join(ids)})`.execute(db);
    after = rows[rows.length - 1]!.id;
  }
  await db.schema.createIndex('lead_sales_decided').on('lead_sales').column('decided_at').execute();
  await db.schema.createIndex('lead_returns_time').on('lead_returns').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('lead_returns_time').execute();
  await db.schema.dropIndex('lead_sales_decided').execute();
  await db.schema.alterTable('leads').dropColumn('device').execute();
}
