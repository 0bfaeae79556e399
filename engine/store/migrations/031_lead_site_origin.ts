/**
 * The origin a lead's site was reached at (engine/http/api.ts originOfRequest): https://<host> for
 * a brand's public host, the scheme and port the request came with for a local one
 * (http://ipaydayloans.localhost:3000). The URL of its consent certificate's page in the post to a
 * buyer is built on it: a host alone loses a local server's port and scheme. Leads stored before
 * this have '' and keep https://<host>, as they were posted with.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('leads')
    .addColumn('site_origin', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('leads').dropColumn('site_origin').execute();
}
