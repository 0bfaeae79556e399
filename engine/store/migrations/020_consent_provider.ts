/**
 * A lead's third-party consent certificate, when its brand has a consent provider
 * (engine/site/consentProvider.ts): which provider, and the certificate URL (TrustedForm) or
 * token (Jornaya LeadiD) its script gave the form; '' for none. Neither is personal data: the
 * ping and the post carry it to buyers.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('leads')
    .addColumn('consent_provider', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('leads')
    .addColumn('consent_provider_id', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('leads').dropColumn('consent_provider_id').execute();
  await db.schema.alterTable('leads').dropColumn('consent_provider').execute();
}
