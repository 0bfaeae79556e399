/**
 * POST /api/opt-out — the "Stop calls and emails" page: a borrower revokes consent for a phone
 * number or email address. JSON only, at most 2 KB, checked against
 * schemas/api/contact-opt-out.schema.json, rate-limited per client, answered on any brand's
 * host. The contact is kept only as keyed hashes; buyers that bought a lead with it are told
 * through the outbox (engine/sale/optOut.ts). The answer is the same whether or not the contact
 * was known, so the page cannot be used to find out who asked for a loan.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import schema from '../../schemas/api/contact-opt-out.schema.json' with { type: 'json' };
import type { ContactOptOutRequest } from '../../schemas/api.types';
import { ApiError, brandOfRequest, clientIp, handleApi, readJsonBody, requireMethod } from '../../engine/http/api';
import { enforceRateLimit, RATE_RULES } from '../../engine/http/rateLimit';
import { wakeLeadWorker } from '../../engine/outbox/leadWorker';
import { getBuyers } from '../../engine/sale/buyers';
import { readOptOut, recordOptOut } from '../../engine/sale/optOut';
import { contactKeys } from '../../engine/sale/keys';
import { getStore } from '../../engine/store/db';
import type { Country } from '../../engine/browser/regions';

export const config = { api: { bodyParser: false } };

export default function handler(req: IncomingMessage, res: ServerResponse) {
  return handleApi(req, res, async () => {
    requireMethod(req, ['POST']);
    const { brand } = brandOfRequest(req);
    await enforceRateLimit(RATE_RULES.optOut, clientIp(req));
    const body = await readJsonBody<ContactOptOutRequest>(req, { limit: 2 * 1024, schema });
    const contact = readOptOut(body, brand.country as Country);
    if (!contact.ok) throw new ApiError(400, 'Check the phone number or email address', contact.problems);
    const buyers = getBuyers().buyers;
    const { notices } = await recordOptOut(await getStore(), contactKeys(), contact, (id) => !!buyers.get(id)?.buyer.optOutUrl, new Date());
    if (notices) wakeLeadWorker();
    return { status: 200, body: { status: 'recorded' } };
  });
}
