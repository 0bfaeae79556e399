/**
 * A consent certificate's page, rendered for the front door's /certificate/<id> on a brand's host
 * (engine/frontDoor/frontDoor.ts hands it here): the certificate of a lead of that brand, or a
 * 404 page — the same for an id never issued, one past its retention and one of another brand
 * (engine/leads/certificate/page.ts).
 */
import { brandAtHost } from '../../../engine/http/api';
import { route } from '../../../engine/http/route';
import { isCertificateId } from '../../../engine/leads/certificate/certificate';
import { readCertificate } from '../../../engine/leads/certificate/issue';
import { certificatePage, noCertificate } from '../../../engine/leads/certificate/page';

export default route({ methods: ['GET', 'HEAD'] }, async ({ req, host, store }) => {
  const id = new URL(req.url ?? '/', 'http://x').searchParams.get('id') ?? '';
  const brand = brandAtHost(host).brand;
  const stored = isCertificateId(id) ? await readCertificate(await store(), id, new Date()) : undefined;
  const answer = stored && stored.signed.certificate.brand === brand.id ? certificatePage(stored.signed, stored.problem) : noCertificate();
  return { status: answer.status, bytes: Buffer.from(answer.body, 'utf8'), headers: answer.headers };
});
