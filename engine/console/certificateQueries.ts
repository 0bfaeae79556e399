/**
 * A lead's consent certificate as the console's lead page shows it: whether it still verifies,
 * where its page is, how long it is kept, which buyers claimed it, the hash of the page as served
 * and the consent's look against the brand's rules. Never the client's address or browser (the
 * certificate holds them; the page's Person section is where personal data is shown, masked by role).
 */
import type { Store } from '../store/db';
import { readCertificate } from '../leads/certificate/issue';

export interface LeadCertificateView {
  id: string;
  issuedAt: string;
  keptUntil: string;
  /** the certificate's human-readable page, on the host the lead came from */
  pageAddress: string;
  /** undefined: the signature holds */
  problem: string | undefined;
  htmlSha256: string | null;
  consentMeetsRules: boolean;
  consentProblems: string[];
  claims: { buyer: string; at: string }[];
}

/** The certificate of a lead, or null when it has none kept (never issued, or past its retention). */
export async function leadCertificate(
  db: Store,
  certificateId: string | undefined,
  now = new Date(),
): Promise<LeadCertificateView | { unreadable: string } | null> {
  if (!certificateId) return null;
  let stored: Awaited<ReturnType<typeof readCertificate>>;
  try {
    stored = await readCertificate(db, certificateId, now);
  } catch (err) {
    // sealed with a key this server no longer holds, or damaged: the page says so rather than failing
    return { unreadable: (err as Error).message };
  }
  if (!stored) return null;
  const { certificate } = stored.signed;
  const claims = await db
    .selectFrom('lead_certificate_claims')
    .select(['buyer_id', 'claimed_at'])
    .where('certificate_id', '=', certificateId)
    .orderBy('claimed_at')
    .execute();
  return {
    id: certificate.id,
    issuedAt: certificate.issuedAt,
    keptUntil: stored.expiresAt,
    pageAddress: new URL(`/certificate/${certificate.id}`, certificate.page.url).href,
    problem: stored.problem,
    htmlSha256: certificate.page.htmlSha256,
    consentMeetsRules: certificate.consent.display.meetsRules,
    consentProblems: certificate.consent.display.problems,
    claims: claims.map((c) => ({ buyer: c.buyer_id, at: c.claimed_at })),
  };
}
