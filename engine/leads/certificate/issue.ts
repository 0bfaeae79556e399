/**
 * Issuing and reading certificates: built and signed at submit (./certificate.ts), sealed and
 * stored (engine/store/certificates.ts), kept CERTIFICATE_RETENTION_DAYS (default 1,826: five
 * years) and longer once a buyer claims one; read back for the buyer API and the page.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Store } from '../../store/db';
import { certificateRow, insertCertificate, openCertificateJson, sealCertificateJson, type LeadCertificatesTable } from '../../store/certificates';
import { isTestLead } from '../environment';
import { canonicalJson } from './canonical';
import { buildCertificate, certificateProblem, signCertificate, type Certificate, type CertificateFacts, type SignedCertificate } from './certificate';

const DAY_MS = 24 * 3600_000;
export const DEFAULT_RETENTION_DAYS = 1826;

/** CERTIFICATE_RETENTION_DAYS: whole days, at least 1; anything else is the default, with a warning. */
export function retentionDays(env: Record<string, string | undefined> = process.env): number {
  const text = env.CERTIFICATE_RETENTION_DAYS;
  if (text === undefined || text === '') return DEFAULT_RETENTION_DAYS;
  const days = Number(text);
  if (Number.isInteger(days) && days >= 1) return days;
  console.warn(`[certificates] CERTIFICATE_RETENTION_DAYS=${text} is not a whole number of days (1 or more): keeping ${DEFAULT_RETENTION_DAYS}`);
  return DEFAULT_RETENTION_DAYS;
}

export const keptUntil = (from: Date, env?: Record<string, string | undefined>): Date => new Date(from.getTime() + retentionDays(env) * DAY_MS);

/** The stored row of a lead's certificate: built, signed and sealed (the lead's transaction inserts it, engine/store/leads.ts insertLead). */
export function certificateRowOf(facts: CertificateFacts): LeadCertificatesTable {
  const signed = signCertificate(buildCertificate(facts));
  return {
    id: facts.id,
    lead_id: facts.leadId,
    brand: facts.brand.id,
    created_at: facts.receivedAt.toISOString(),
    expires_at: keptUntil(facts.receivedAt).toISOString(),
    sealed: sealCertificateJson(canonicalJson(signed)),
  };
}

/** Builds, signs and stores a certificate on its own (outside a lead's transaction). */
export const issueCertificate = (db: Store, facts: CertificateFacts): Promise<void> => insertCertificate(db, certificateRowOf(facts));

export interface StoredCertificate {
  signed: SignedCertificate;
  expiresAt: string;
  /** why it does not verify (undefined: it does) */
  problem: string | undefined;
}

/** A stored certificate row opened and checked; throws when it cannot be opened (sealed with a lead key this server is not configured with). */
export function openStoredCertificate(row: LeadCertificatesTable): StoredCertificate {
  const signed = JSON.parse(openCertificateJson(row.sealed)) as SignedCertificate;
  return { signed, expiresAt: row.expires_at, problem: certificateProblem(signed) };
}

/** A kept certificate, opened and checked; undefined when there is none by that id (or it expired). */
export async function readCertificate(db: Store, id: string, now: Date): Promise<StoredCertificate | undefined> {
  const row = await certificateRow(db, id, now);
  return row ? openStoredCertificate(row) : undefined;
}

/**
 * Whether a certificate is a test lead's: as signed in it, or — for one issued before certificates
 * said so — as its lead was stored (a lead no longer kept: not known to be a test, false).
 */
export async function certificateIsTest(db: Store, c: Pick<Certificate, 'leadId' | 'test'>): Promise<boolean> {
  if (typeof c.test === 'boolean') return c.test;
  const lead = await db.selectFrom('leads').select('environment').where('id', '=', c.leadId).executeTakeFirst();
  return lead !== undefined && isTestLead(lead);
}

/** How a buyer hashes a phone: SHA-256 (hex) of its digits only, as the post carries it ("(512) 555-0123" → "5125550123"). */
export const phoneHash = (phone: string): string => createHash('sha256').update(phone.replace(/\D/g, '')).digest('hex');
/** How a buyer hashes an email: SHA-256 (hex) of the address trimmed and in lower case. */
export const emailHash = (email: string): string => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

export const sameHash = (a: string, b: string): boolean => {
  const x = Buffer.from(a.toLowerCase());
  const y = Buffer.from(b.toLowerCase());
  return x.length === y.length && timingSafeEqual(x, y);
};
