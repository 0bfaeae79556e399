/**
 * What a buyer may ask of a certificate (pages/api/certificates/*): verify it (the signature
 * holds, nothing was altered, and whether a phone or email hash it has is the lead's), claim it
 * (it holds the lead: recorded, and the certificate kept longer) and fetch it — only a buyer the
 * lead was offered to (pinged, posted or delivered). An id that was never issued, whose retention
 * ended, or whose lead was never offered to the asking buyer is the same 404, so a buyer cannot
 * learn from us which leads exist, nor read the consent evidence of another buyer's lead.
 */
import type { BuyerCertificateClaimAnswer, BuyerCertificateFetchAnswer, BuyerCertificateVerifyAnswer } from '../../../schemas/api.types';
import type { Store } from '../../store/db';
import { certificateRow, claimCertificate, offeredTo } from '../../store/certificates';
import { certificateIsTest, emailHash, keptUntil, openStoredCertificate, phoneHash, sameHash, type StoredCertificate } from './issue';

export interface ContactHashes {
  phoneSha256?: string | undefined;
  emailSha256?: string | undefined;
}

export type Refusal = { ok: false; status: 403 | 404 | 503; reason: string };

/** A 200's answer, as schemas/api/buyer-certificate-{verify,claim,fetch}-answer.schema.json declare it; or the refusal. */
export type BuyerAnswer<A> = { ok: true; answer: A } | Refusal;

const unknown = (id: string, buyerId: string): Refusal => ({ ok: false, status: 404, reason: `No certificate ${id} of a lead offered to ${buyerId}` });

const unreadable = (id: string): Refusal => ({
  ok: false,
  status: 503,
  reason: `Certificate ${id} is kept but cannot be read right now; ask again later`,
});

/**
 * The certificate when it is kept and its lead was offered to this buyer; undefined otherwise (one
 * answer for every case). Who may read it is decided from the row before anything is opened; a
 * certificate this server cannot open (sealed with a lead key it is no longer configured with) is
 * 'unreadable': still kept, so neither a 404 (the buyer holds it) nor an error.
 */
async function buyersCertificate(db: Store, buyerId: string, id: string, now: Date): Promise<StoredCertificate | 'unreadable' | undefined> {
  const row = await certificateRow(db, id, now);
  if (!row || !(await offeredTo(db, row.lead_id, buyerId))) return undefined;
  try {
    return openStoredCertificate(row);
  } catch (err) {
    console.error(`[certificates] ${id} cannot be opened: ${(err as Error).message}`);
    return 'unreadable';
  }
}

/** Whether each hash given matches the lead's phone or email (null: not asked). */
async function contactMatches(db: Store, stored: StoredCertificate, asked: ContactHashes) {
  const lead = await db.selectFrom('leads').select(['phone', 'email']).where('id', '=', stored.signed.certificate.leadId).executeTakeFirst();
  const match = (given: string | undefined, own: string | undefined) => (given === undefined ? null : own !== undefined && sameHash(given, own));
  return { phone: match(asked.phoneSha256, lead && phoneHash(lead.phone)), email: match(asked.emailSha256, lead && emailHash(lead.email)) };
}

export async function verifyForBuyer(
  db: Store,
  buyerId: string,
  id: string,
  asked: ContactHashes,
  now: Date,
): Promise<BuyerAnswer<BuyerCertificateVerifyAnswer>> {
  const stored = await buyersCertificate(db, buyerId, id, now);
  if (!stored) return unknown(id, buyerId);
  if (stored === 'unreadable') return unreadable(id);
  const matches = await contactMatches(db, stored, asked);
  return {
    ok: true,
    answer: {
      certificateId: id,
      valid: stored.problem === undefined,
      ...(stored.problem ? { problem: stored.problem } : {}),
      // a test lead's consent is no borrower's: the buyer must be able to tell before it relies on it
      test: await certificateIsTest(db, stored.signed.certificate),
      kid: stored.signed.signature.kid,
      issuedAt: stored.signed.certificate.issuedAt,
      expiresAt: stored.expiresAt,
      phoneMatches: matches.phone,
      emailMatches: matches.email,
    },
  };
}

/** A claim must prove the buyer has the lead: a phone or email hash that matches it. */
export async function claimForBuyer(
  db: Store,
  buyerId: string,
  id: string,
  asked: ContactHashes,
  now: Date,
): Promise<BuyerAnswer<BuyerCertificateClaimAnswer>> {
  const stored = await buyersCertificate(db, buyerId, id, now);
  if (!stored) return unknown(id, buyerId);
  if (stored === 'unreadable') return unreadable(id);
  const matches = await contactMatches(db, stored, asked);
  if (matches.phone === null && matches.email === null)
    return { ok: false, status: 403, reason: 'Send phoneSha256 or emailSha256 of the lead you hold to claim its certificate' };
  if (matches.phone === false || matches.email === false)
    return {
      ok: false,
      status: 403,
      reason: `The ${matches.phone === false ? 'phone' : 'email'} hash does not match this certificate's lead`,
    };
  const claim = await claimCertificate(db, id, buyerId, now, keptUntil(now));
  return { ok: true, answer: { certificateId: id, buyer: buyerId, claimedAt: claim.claimedAt, expiresAt: claim.expiresAt } };
}

export async function fetchForBuyer(db: Store, buyerId: string, id: string, now: Date): Promise<BuyerAnswer<BuyerCertificateFetchAnswer>> {
  const stored = await buyersCertificate(db, buyerId, id, now);
  if (!stored) return unknown(id, buyerId);
  if (stored === 'unreadable') return unreadable(id);
  return {
    ok: true,
    answer: {
      ...stored.signed,
      valid: stored.problem === undefined,
      test: await certificateIsTest(db, stored.signed.certificate),
      expiresAt: stored.expiresAt,
    },
  };
}
