/**
 * The buyer that signed a request to us: X-Loansites-Buyer names it, X-Loansites-Signature is the
 * HMAC-SHA256 of the raw body under its secret (engine/sale/returns.ts signedBy). Every buyer API
 * route (returns, certificates) checks it before the body is parsed; 401 otherwise.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../http/api';
import { buyerSecret, getBuyers } from './buyers';
import { signedBy } from './returns';

const header = (req: IncomingMessage, name: string): string => {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

export function signingBuyer(raw: Buffer, req: IncomingMessage) {
  const buyer = signedBy(
    raw,
    header(req, 'x-loansites-buyer'),
    header(req, 'x-loansites-signature'),
    (id) => getBuyers().buyers.get(id)?.buyer,
    (b) => buyerSecret(b),
  );
  if (!buyer)
    throw new ApiError(
      401,
      'Unknown buyer or bad signature: sign the raw body with your secret (X-Loansites-Signature: sha256=<hex>) and name yourself in X-Loansites-Buyer',
    );
  return buyer;
}
