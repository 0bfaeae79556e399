/**
 * The demo lender's endpoints as this server serves them (pages/api/demo-lender/*): signed like
 * any buyer's (with its well-known demo secret), and absent — 404 — in a deployment or when
 * buyer documents exist, so it can never buy a real lead.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError, readRawBody } from '../http/api';
import { leadKeyring } from '../keys/sealing';
import { demoLenderAvailable } from './demoAvailable';
import { DEMO_SECRET } from './demoLender';
import { demoOfferKey, sealDemoOffer, type DemoOffer } from './demoOffer';

export { demoLenderAvailable };

/** The signed JSON body of a request to the demo lender; 404 where it does not exist, 401 unsigned. */
export async function readDemoRequest(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (!demoLenderAvailable()) throw new ApiError(404, 'No demo lender here');
  if (req.method !== 'POST') throw new ApiError(405, 'Use POST', [], { Allow: 'POST' });
  const raw = await readRawBody(req, 16 * 1024);
  const expected = Buffer.from(`sha256=${createHmac('sha256', DEMO_SECRET).update(raw).digest('hex')}`);
  const given = Buffer.from(String(req.headers['x-loansites-signature'] ?? ''));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new ApiError(401, 'Missing or wrong X-Loansites-Signature');
  try {
    const value = JSON.parse(raw.toString('utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new ApiError(400, 'The body is not a JSON object');
}

/** Seals the demo lender's offer under the current lead key, bound to the brand the request came from. */
export const sealOffer = (offer: Omit<DemoOffer, 'expiresAt'>, brand: string, now = new Date()): string =>
  sealDemoOffer(offer, now, demoOfferKey(leadKeyring().current.key), brand);

/** Every key an offer link may have been sealed with: one per lead key still held (a rotation keeps yesterday's links working). */
export const offerKeys = (): Buffer[] => [...leadKeyring().byId.values()].map(demoOfferKey);
