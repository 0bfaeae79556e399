/**
 * An editor account may be limited to some brands in the studio: `brands` lists their ids
 * (comma-separated); null or empty, every brand (engine/console/roles.ts mayEditBrand).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('console_users').addColumn('brands', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('console_users').dropColumn('brands').execute();
}
