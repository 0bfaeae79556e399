/**
 * The campaign of an ad cost as its report named it in full (engine/traffic/costCsv.ts): `campaign`
 * keeps what a visit keeps (its first 500 characters), so two campaigns the ad platform tells
 * apart by what follows would be stored as one, the second import's cost silently replacing or
 * adding to the first's. With the full name stored, an import naming another full name for a
 * stored cut name is refused (engine/store/costs.ts). Rows imported before this have null: their
 * full name was never kept, so they are not compared.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ad_costs').addColumn('campaign_full', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ad_costs').dropColumn('campaign_full').execute();
}
