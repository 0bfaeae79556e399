/**
 * The demo lender's endpoints as this server serves them (pages/api/demo-lender/*): signed like
 * any buyer's (with its well-known demo secret), and absent — 404 — in a deployment or when
 * buyer documents exist, so it can never buy a real lead.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../http/api';
import { leadKeyring } from '../keys/sealing';
import { demoLenderAvailable } from './demoAvailable';
import { DEMO_SECRET } from './demoLender';
import { demoOfferKey, sealDemoOffer, type DemoOffer } from './demoOffer';

export { demoLenderAvailable };

/** Why the demo lender's endpoints are a 404 here, or undefined where it exists. */
export const noDemoLenderHere = (): string | undefined => (demoLenderAvailable() ? undefined : 'No demo lender here');

/** A request to the demo lender carries at most this many bytes. */
export const DEMO_BODY_LIMIT = 16 * 1024;

/** 401 unless the raw body is signed with the demo secret (X-Loansites-Signature), as any buyer's requests are. */
export function demoSigned(raw: Buffer, req: IncomingMessage): void {
  const expected = Buffer.from(`sha256=${createHmac('sha256', DEMO_SECRET).update(raw).digest('hex')}`);
  const given = Buffer.from(String(req.headers['x-loansites-signature'] ?? ''));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new ApiError(401, 'Missing or wrong X-Loansites-Signature');
}

/** The signed body as a JSON object; 400 otherwise. */
export function demoRequestOf(raw: Buffer): Record<string, unknown> {
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
