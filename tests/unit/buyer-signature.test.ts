/**
 * The signature on a buyer's request to us (returns, certificates): the HMAC-SHA256 of the raw
 * body under the buyer's secret, `sha256=<hex>`, as docs/lenders/protocol.md gives it — hex in
 * either case, since many languages' encoders write capitals; anything else, another secret or
 * an unknown buyer is no signature.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';
import { signedBy } from '../../engine/sale/returns';

const SECRET = 'a-buyer-secret-of-sixteen-or-more';
const buyer = { id: 'acme' } as Buyer;
const raw = Buffer.from('{"leadId":"ld_abcdefghij","reason":"fraud"}');
const hex = createHmac('sha256', SECRET).update(raw).digest('hex');
const check = (header: string, id = 'acme', body = raw) =>
  signedBy(
    body,
    id,
    header,
    (i) => (i === 'acme' ? buyer : undefined),
    () => SECRET,
  );

describe('a buyer request signature', () => {
  it('is taken with the hex in lower case, in capitals, or with surrounding spaces', () => {
    expect(check(`sha256=${hex}`)).toBe(buyer);
    expect(check(`sha256=${hex.toUpperCase()}`)).toBe(buyer);
    expect(check(` sha256=${hex} `)).toBe(buyer);
  });

  it('is refused for another body, another secret, a short or non-hex value, no prefix, or an unknown buyer', () => {
    expect(check(`sha256=${hex}`, 'acme', Buffer.from('{}'))).toBeUndefined();
    expect(check(`sha256=${createHmac('sha256', 'another-secret').update(raw).digest('hex')}`)).toBeUndefined();
    expect(check(`sha256=${hex.slice(0, 62)}`)).toBeUndefined();
    expect(check(`sha256=${'z'.repeat(64)}`)).toBeUndefined();
    expect(check(hex)).toBeUndefined();
    expect(check('')).toBeUndefined();
    expect(check(`sha256=${hex}`, 'nobody')).toBeUndefined();
  });
});
