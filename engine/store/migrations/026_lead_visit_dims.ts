/**
 * A lead keeps a copy of its visit's dimensions — brand, campaign, source, landing page, device —
 * the columns the console's money and lead cuts split and filter by (engine/store/leadVisitDims.ts):
 * the overview then reads each sold, returned or stored lead once, instead of looking up its visit
 * too (on PostgreSQL with 100,000 leads that look-up was most of the overview's time). Null while
 * the lead's visit is not stored.
 *
 * - The leads stored before are filled from their visits here, a batch of leads (by id) per
 *   UPDATE … FROM, so no statement holds SQLite's write lock for long.
 * - leads_awaiting_visit indexes the leads still waiting for their visit, and them alone: the
 *   traffic writer looks each new visit up in it, and it stays near empty.
 * - The money's and the cuts' covering indexes (015, 022) carry the copied columns instead of the
 *   visit id, so both queries still read indexes only.
 */
import { sql, type Kysely } from 'kysely';

const BATCH = 5000;

/** The lead's columns and the visit's columns they copy (as engine/store/leadVisitDims.ts, written out: a migration never changes). */
const COPIED = [
  ['visit_brand', 'brand'],
  ['visit_campaign', 'campaign'],
  ['visit_source', 'source'],
  ['visit_landing', 'landing_path'],
  ['visit_device', 'device'],
] as const;

/** Each covering index: its columns before, and now. */
const COVERING: [name: string, before: string[], after: string[]][] = [
  [
    'leads_money',
    ['id', 'visit_id', 'brand', 'device', 'state', 'source2', 'loan_kind', 'currency'],
    ['id', 'brand', 'device', 'state', 'source2', 'loan_kind', 'currency', ...COPIED.map(([c]) => c)],
  ],
  [
    'leads_cuts',
    ['created_at', 'visit_id', 'brand', 'device', 'source2', 'loan_kind', 'id'],
    ['created_at', 'brand', 'device', 'source2', 'loan_kind', 'id', ...COPIED.map(([c]) => c)],
  ],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [column] of COPIED) await db.schema.alterTable('leads').addColumn(column, 'text').execute();
  const set = sql.join(COPIED.map(([lead, visit]) => sql`${sql.ref(lead)} = ${sql.ref(`v.${visit}`)}`));
  for (let after = ''; ;) {
    // the batch's last lead: the leads after `after` up to it (all that are left when fewer than a batch)
    const last = await sql<{ id: string }>`SELECT id FROM leads WHERE id > ${after} ORDER BY id LIMIT 1 OFFSET ${BATCH - 1}`.execute(db);
    const upTo = last.rows[0]?.id;
    await sql`UPDATE leads SET ${set} FROM traffic_visits AS v
      WHERE v.id = leads.visit_id AND leads.id > ${after} ${upTo === undefined ? sql`` : sql`AND leads.id <= ${upTo}`}`.execute(db);
    if (upTo === undefined) break;
    after = upTo;
  }
  await sql`CREATE INDEX leads_awaiting_visit ON leads (visit_id) WHERE visit_id IS NOT NULL AND visit_brand IS NULL`.execute(db);
  for (const [name, , after] of COVERING) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('leads').columns(after).execute();
  }
  await sql`ANALYZE leads`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, before] of COVERING) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('leads').columns(before).execute();
  }
  await db.schema.dropIndex('leads_awaiting_visit').execute();
  for (const [column] of COPIED) await db.schema.alterTable('leads').dropColumn(column).execute();
}
