/**
 * Screening: one row per lead with its quality score, its reason codes and the short hashes of
 * its phone, email, network and device, so the velocity check counts earlier requests across
 * brands without reading (or keeping a second copy of) the values. Indexed by each key and time.
 */
import type { Kysely } from 'kysely';

const KEYS = ['phone_key', 'email_key', 'ip_key', 'device_key'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  let t = db.schema
    .createTable('lead_screening')
    .addColumn('lead_id', 'text', (c) => c.primaryKey().references('leads.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('score', 'integer', (c) => c.notNull())
    .addColumn('band', 'text', (c) => c.notNull())
    .addColumn('codes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('routing', 'text', (c) => c.notNull());
  for (const k of KEYS) t = t.addColumn(k, 'text', (c) => c.notNull().defaultTo(''));
  await t.execute();
  for (const k of KEYS) await db.schema.createIndex(`lead_screening_${k}`).on('lead_screening').columns([k, 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('lead_screening').execute();
}
