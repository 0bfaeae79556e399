/**
 * When an operator released or rejected a lead screening held (engine/store/screening.ts
 * reviewHeldLead). A released lead's sale is bounded from its release, as a lead's sale is from its
 * arrival: a sale resumed after its worker died is not given a new window. Leads reviewed before
 * this have none (their sale is bounded from its start, as then).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lead_screening').addColumn('reviewed_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lead_screening').dropColumn('reviewed_at').execute();
}
