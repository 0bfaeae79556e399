/**
 * POST /api/leads — a loan request from the embedded application form. JSON only, at most
 * 16 KB, checked against schemas/api/lead.schema.json, rate-limited per client, the brand from
 * the host. Stored (engine/leads/record.ts) before anything else, then screened
 * (engine/leads/screening/run.ts: a quality score and reason codes); the outbox worker delivers it.
 * 201 {id, saleToken, certificateUrl} for a new lead (certificateUrl: the borrower's page of its consent
 * certificate, engine/leads/certificate), 200 the same for the same idempotency key again, 202 for the honeypot,
 * 409 {error, id, saleToken, certificateUrl} for the same idempotency key with a different body: the
 * change is not taken, and the lead stored under the key is named as the 200 names it (only the browser
 * that sent the key holds it), so a form whose first answer was lost follows that request's sale.
 * A visit id the site did not issue for the brand is not linked (the lead is kept).
 */
import schema from '../../schemas/api/lead.schema.json' with { type: 'json' };
import { geocoderIndex } from '../../engine/geo/geocoder/data';
import { originOfRequest, truncateIp, userAgent } from '../../engine/http/api';
import { json, route } from '../../engine/http/route';
import { RATE_RULES } from '../../engine/http/rateLimit';
import { loanKindOf, recordLead, type LeadBody, type ZipPlace } from '../../engine/leads/record';
import { screenStoredLead } from '../../engine/leads/screening/run';
import { wakeLeadWorker } from '../../engine/outbox/leadWorker';
import { contactKey, saleToken } from '../../engine/sale/keys';
import { contactHashes } from '../../engine/sale/contact';
import { startSale } from '../../engine/outbox/saleWorker';
import { saleOf } from '../../engine/store/sales';
import { privacyOptedOut } from '../../engine/browser/privacy';
import { certificatePagePath } from '../../engine/browser/certificatePath';
import { storedLeadEvent } from '../../engine/traffic/serverEvents';
import { verifyVisitId } from '../../engine/traffic/visitId';
import { sharedTrafficWriter } from '../../engine/traffic/writer';

export const config = { api: { bodyParser: false } };

function zipLookup(zip: string): ZipPlace | undefined {
  const pc = geocoderIndex().postcodeByZip.get(zip);
  return pc ? { city: pc.place.name, state: pc.place.state } : undefined;
}

export default route(
  { methods: ['POST'], brand: true, rate: RATE_RULES.leads, body: json<LeadBody>(schema, 16 * 1024) },
  async ({ req, body: sent, brand: loaded, host, ip, store }) => {
    // The lead links to its visit (the funnel's `stored` stage) only by an id this site issued for this brand.
    const visitId = sent.tracking.visitId && verifyVisitId(sent.tracking.visitId, loaded.brand.id) ? sent.tracking.visitId : undefined;
    const body: LeadBody = { ...sent, tracking: { ...sent.tracking, visitId } };
    const db = await store();
    const result = await recordLead(db, loaded.brand, body, {
      // the host the brand was found by (a lead from a dev. or test123. host is a test lead)
      host,
      // where the borrower's page and its certificate's are opened: a local server's port and scheme kept
      origin: originOfRequest(req, host),
      ip: truncateIp(ip),
      userAgent: userAgent(req),
      now: new Date(),
      privacyOptOut: privacyOptedOut(req.headers),
      zipLookup,
      contactHashes: (contact) => contactHashes(contactKey(), contact),
    });
    if (result.status === 201) {
      // Screened before its sale starts, so the sale reads the score; a failure leaves it unscreened, never lost.
      await screenStoredLead(db, loaded.brand, body, {
        leadId: result.id,
        ip,
        region: (result.state ?? '').toUpperCase(),
        loanKind: loanKindOf(loaded.brand),
        now: new Date(),
      }).catch((err: Error) => console.error(`[screening] ${result.id}: ${err.message}`));
      wakeLeadWorker();
      sharedTrafficWriter().add(storedLeadEvent({ visitId, brand: loaded.brand.id, state: result.state, userAgent: userAgent(req), now: new Date() }));
    }
    // The lead is stored: a failure to start its sale now is retried by the sale's sweep, never lost.
    // The same key again (a double click, a resend) starts it only once its sale exists: until then
    // the request that stored the lead is screening it, and a sale started first would read no score
    // and offer the lead past its brand's refusal or hold. A lead whose storing request died before
    // its sale is taken up by the sweep (engine/store/sales.ts ADOPT_AFTER_MS).
    if (result.id && (result.status === 201 || (await saleOf(db, result.id))))
      await startSale(db, result.id).catch((err: Error) => console.error(`[sale] not started for ${result.id}: ${err.message}`));
    // the borrower's own copy of the consent certificate: the thank-you screen links its page
    const certificate = result.certificateId ? { certificateUrl: certificatePagePath(result.certificateId) } : {};
    // no `status: 'received'` here: what this request asked for was not taken, the lead named is the earlier one
    if (result.status === 409) return { status: 409, body: { error: result.error, id: result.id, saleToken: saleToken(result.id), ...certificate } };
    return {
      status: result.status,
      body: result.id ? { id: result.id, status: 'received', saleToken: saleToken(result.id), ...certificate } : { status: 'received' },
    };
  },
);
