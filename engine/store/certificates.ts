/**
 * Consent certificates in the store (migration 014): the signed certificate's JSON, deflated and
 * sealed with the lead keys (engine/keys/sealing.ts) — it holds the borrower's address and
 * browser — one row per lead, kept until `expires_at`; and which buyers claimed each.
 * Deflated because the consent text and the browser string repeat themselves: a certificate is
 * well under 2 KB stored.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { openBytes, sealBytes } from '../keys/sealing';
import type { Store } from './db';

export interface LeadCertificatesTable {
  id: string;
  lead_id: string;
  brand: string;
  created_at: string;
  /** deleted after this (pruneCertificates); a claim moves it later */
  expires_at: string;
  /** the deflated signed certificate JSON, sealed (engine/keys/sealing.ts sealBytes) */
  sealed: string;
}

export interface LeadCertificateClaimsTable {
  certificate_id: string;
  buyer_id: string;
  claimed_at: string;
}

export const sealCertificateJson = (json: string): string => sealBytes(deflateRawSync(Buffer.from(json, 'utf8')));
export const openCertificateJson = (sealed: string): string => inflateRawSync(openBytes(sealed)).toString('utf8');

/** Stores a lead's certificate once: a retry of the same lead keeps the first. */
export async function insertCertificate(db: Store, row: LeadCertificatesTable): Promise<void> {
  await db
    .insertInto('lead_certificates')
    .values(row)
    .onConflict((oc) => oc.column('lead_id').doNothing())
    .execute();
}

/** A certificate still kept at `now`, or undefined (never stored, or past its retention). */
export async function certificateRow(db: Store, id: string, now: Date): Promise<LeadCertificatesTable | undefined> {
  return db.selectFrom('lead_certificates').selectAll().where('id', '=', id).where('expires_at', '>', now.toISOString()).executeTakeFirst();
}

/** The sale's steps that put a lead in front of a buyer: its ping (no personal data, the certificate id), its post, its delivery. */
const OFFER_STEPS = ['ping', 'post', 'deliver'] as const;

/** Whether the lead was offered to `buyerId` (pinged, posted or delivered): who may read its certificate. */
export async function offeredTo(db: Store, leadId: string, buyerId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sale_events')
    .select('id')
    .where('lead_id', '=', leadId)
    .where('buyer_id', '=', buyerId)
    .where('step', 'in', OFFER_STEPS)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records that `buyerId` holds the certificate and keeps it at least until `keepUntil`; the first claim's time stays. */
export async function claimCertificate(db: Store, id: string, buyerId: string, now: Date, keepUntil: Date): Promise<{ claimedAt: string; expiresAt: string }> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('lead_certificate_claims')
      .values({ certificate_id: id, buyer_id: buyerId, claimed_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['certificate_id', 'buyer_id']).doNothing())
      .execute();
    await trx
      .updateTable('lead_certificates')
      .set({ expires_at: keepUntil.toISOString() })
      .where('id', '=', id)
      .where('expires_at', '<', keepUntil.toISOString())
      .execute();
    const claim = await trx
      .selectFrom('lead_certificate_claims')
      .select('claimed_at')
      .where('certificate_id', '=', id)
      .where('buyer_id', '=', buyerId)
      .executeTakeFirstOrThrow();
    const cert = await trx.selectFrom('lead_certificates').select('expires_at').where('id', '=', id).executeTakeFirstOrThrow();
    return { claimedAt: claim.claimed_at, expiresAt: cert.expires_at };
  });
}

/** Deletes the certificates past their retention, and their claims; says how many. */
export async function pruneCertificates(db: Store, now: Date): Promise<number> {
  const gone = await db.selectFrom('lead_certificates').select('id').where('expires_at', '<=', now.toISOString()).execute();
  if (!gone.length) return 0;
  const ids = gone.map((r) => r.id);
  await db.deleteFrom('lead_certificate_claims').where('certificate_id', 'in', ids).execute();
  await db.deleteFrom('lead_certificates').where('id', 'in', ids).execute();
  return ids.length;
}
