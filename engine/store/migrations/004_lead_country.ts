/**
 * A lead's country, region and currency: the brands serve the US, Canada and Australia, and a
 * buyer (and `npm run leads`) must tell a Canadian $1,000 from a US one and a province from a
 * state. Leads stored before were all from US brands: US, their state upper-cased, USD.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('leads')
    .addColumn('country', 'text', (c) => c.notNull().defaultTo('US'))
    .execute();
  await db.schema
    .alterTable('leads')
    .addColumn('region', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('leads')
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .execute();
  await sql`UPDATE leads SET region = UPPER(state) WHERE region = ''`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('leads').dropColumn('currency').execute();
  await db.schema.alterTable('leads').dropColumn('region').execute();
  await db.schema.alterTable('leads').dropColumn('country').execute();
}
