/**
 * A consent certificate's page, rendered for the front door's /certificate/<id> on a brand's host
 * (engine/frontDoor/frontDoor.ts hands it here): the certificate of a lead of that brand, or a
 * 404 page — the same for an id never issued, one past its retention and one of another brand
 * (engine/leads/certificate/page.ts); a 503 page for one kept but sealed with a lead key this server is not configured with.
 */
import { brandAtHost } from '../../../engine/http/api';
import { route } from '../../../engine/http/route';
import { isCertificateId } from '../../../engine/leads/certificate/certificate';
import { certificateIsTest, openStoredCertificate } from '../../../engine/leads/certificate/issue';
import { certificatePage, noCertificate, unreadableCertificate, type PageAnswer } from '../../../engine/leads/certificate/page';
import { certificateRow } from '../../../engine/store/certificates';

export default route({ methods: ['GET', 'HEAD'] }, async ({ req, host, store }) => {
  const id = new URL(req.url ?? '/', 'http://x').searchParams.get('id') ?? '';
  const brand = brandAtHost(host).brand;
  const row = isCertificateId(id) ? await certificateRow(await store(), id, new Date()) : undefined;
  let answer: PageAnswer = noCertificate();
  if (row && row.brand === brand.id) {
    const db = await store();
    try {
      const stored = openStoredCertificate(row);
      answer = certificatePage(stored.signed, stored.problem, await certificateIsTest(db, stored.signed.certificate));
    } catch (err) {
      // sealed with a lead key this server is no longer configured with: kept, but not readable now
      console.error(`[certificates] ${id} cannot be opened: ${(err as Error).message}`);
      answer = unreadableCertificate();
    }
  }
  return { status: answer.status, bytes: Buffer.from(answer.body, 'utf8'), headers: answer.headers };
});
