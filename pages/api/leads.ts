/**
 * POST /api/leads — a loan request from the embedded application form. JSON only, at most
 * 16 KB, checked against schemas/api/lead.schema.json, rate-limited per client, the brand from
 * the host. Stored (engine/leads/record.ts) before anything else; the outbox worker delivers it.
 * 201 {id} for a new lead, 200 {id} for the same idempotency key again, 202 for the honeypot.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import schema from '../../schemas/api/lead.schema.json' with { type: 'json' };
import { geocoderIndex } from '../../engine/geocode/data';
import { brandOfRequest, clientIp, handleApi, readJsonBody, requireMethod, truncateIp, userAgent } from '../../engine/http/api';
import { enforceRateLimit, RATE_RULES } from '../../engine/http/rateLimit';
import { recordLead, type LeadBody, type ZipPlace } from '../../engine/leads/record';
import { wakeLeadWorker } from '../../engine/leads/runtime';
import { privacyOptedOut } from '../../engine/privacy';
import { getStore } from '../../engine/store/db';
import { storedLeadEvent } from '../../engine/traffic/serverEvents';
import { sharedTrafficWriter } from '../../engine/traffic/writer';

export const config = { api: { bodyParser: false } };

function zipLookup(zip: string): ZipPlace | undefined {
  const pc = geocoderIndex().postcodeByZip.get(zip);
  return pc ? { city: pc.place.name, state: pc.place.state } : undefined;
}

export default function handler(req: IncomingMessage, res: ServerResponse) {
  return handleApi(req, res, async () => {
    requireMethod(req, ['POST']);
    const loaded = brandOfRequest(req);
    const ip = clientIp(req);
    await enforceRateLimit(RATE_RULES.leads, ip);
    const body = await readJsonBody<LeadBody>(req, { limit: 16 * 1024, schema });
    const result = await recordLead(await getStore(), loaded.brand, body, {
      ip: truncateIp(ip),
      userAgent: userAgent(req),
      now: new Date(),
      privacyOptOut: privacyOptedOut(req.headers),
      zipLookup,
    });
    if (result.status === 201) {
      wakeLeadWorker();
      sharedTrafficWriter().add(
        storedLeadEvent({ visitId: body.tracking.visitId, brand: loaded.brand.id, state: result.state, userAgent: userAgent(req), now: new Date() }),
      );
    }
    return { status: result.status, body: result.id ? { id: result.id, status: 'received' } : { status: 'received' } };
  });
}
