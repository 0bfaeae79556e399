import { describe, expect, it } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';
import { readBid, readPostAnswer, MAX_ANSWER_BYTES, type RawAnswer } from '../../engine/sale/answers';
import { orderOffers, type Bid } from '../../engine/sale/bids';
import { contactHashes, normaliseEmail, normalisePhone } from '../../engine/sale/contact';
import type { SaleLead } from '../../engine/sale/eligibility';
import { ageBand, incomeBand, pingPayload } from '../../engine/sale/ping';
import { checkRedirect } from '../../engine/sale/redirect';
import { saleLeadFacts } from '../support/saleLead';

const buyer = (id: string, over: Partial<Buyer> = {}): Buyer => ({
  $schema: '',
  id,
  displayName: id,
  mode: 'ping-post',
  endpoints: {},
  secretEnv: 'X_SECRET',
  redirectHosts: ['offers.acme.example', '*.lender.example'],
  ...over,
});
const bid = (id: string, price: number, over: Partial<Buyer> = {}, latencyMs = 100): Bid => ({ buyer: buyer(id, over), price, latencyMs });

describe('the order of offers', () => {
  it.each<[string, Bid[], Buyer[], string[]]>([
    ['highest bid first', [bid('a', 10), bid('b', 30), bid('c', 20)], [], ['b:30', 'c:20', 'a:10']],
    ['a bid under its floor is dropped', [bid('a', 10, { price: { floor: 15 } }), bid('b', 12)], [], ['b:12']],
    ['a bid exactly at its floor stays', [bid('a', 15, { price: { floor: 15 } })], [], ['a:15']],
    ['tier 1 before tier 2 whatever the price', [bid('a', 90, { tier: 2 }), bid('b', 5, { tier: 1 })], [], ['b:5', 'a:90']],
    ['equal bids: the faster answer first, then the id', [bid('b', 20, {}, 300), bid('c', 20, {}, 50), bid('a', 20, {}, 300)], [], ['c:20', 'a:20', 'b:20']],
    [
      'direct-post buyers after the bids of their tier, by fixed price',
      [bid('a', 20), bid('t2', 50, { tier: 2 })],
      [buyer('d1', { mode: 'direct-post' }), buyer('d2', { mode: 'direct-post', price: { fixed: 8 } }), buyer('d3', { mode: 'direct-post', tier: 2 })],
      ['a:20', 'd2:8', 'd1:-', 't2:50', 'd3:-'],
    ],
    ['nothing to offer', [], [], []],
  ])('%s', (_, bids, direct, expected) => {
    expect(orderOffers(bids, direct).map((o) => `${o.buyer.id}:${o.price ?? '-'}`)).toEqual(expected);
  });
});

describe('the redirect a buyer asks for', () => {
  const hosts = ['offers.acme.example', '*.lender.example', 'secure.acme.example:443', '*.tls.example:443', 'alt.acme.example:8443'];
  it.each<[string, unknown, string | true]>([
    ['https on a listed host', 'https://offers.acme.example/continue?x=1', true],
    ['a host listed with :443, asked for with it', 'https://secure.acme.example:443/a', true],
    ['a host listed with :443, asked for without it', 'https://secure.acme.example/a', true],
    ['a subdomain of a wildcard listed with :443', 'https://apply.tls.example:443/a', true],
    ['a host listed with another port, asked for with it', 'https://alt.acme.example:8443/a', true],
    [
      'a host listed with another port, asked for without it',
      'https://alt.acme.example/a',
      "redirect refused: alt.acme.example is not one of the buyer's redirectHosts",
    ],
    ['https on a subdomain of a wildcard', 'https://apply.lender.example/a', true],
    ['the wildcard does not cover the bare domain', 'https://lender.example/a', "redirect refused: lender.example is not one of the buyer's redirectHosts"],
    ['a look-alike host ending in the name', 'https://evillender.example/a', "redirect refused: evillender.example is not one of the buyer's redirectHosts"],
    ['plain http', 'http://offers.acme.example/a', 'redirect refused: http: is not https'],
    ['javascript:', 'javascript:alert(1)', 'redirect refused: javascript: is not https'],
    ['data:', 'data:text/html,<script>1</script>', 'redirect refused: data: is not https'],
    ['another host', 'https://phish.example/offers.acme.example', "redirect refused: phish.example is not one of the buyer's redirectHosts"],
    ['credentials smuggling another host', 'https://offers.acme.example@phish.example/', 'redirect refused: credentials in the URL'],
    ['a relative URL', '/continue', 'the redirect URL is not a URL'],
    ['not a string', 42, 'no redirect URL'],
  ])('%s', (_, url, expected) => {
    const got = checkRedirect(url, hosts);
    expect(got.ok ? true : got.reason).toBe(expected);
  });
});

describe('the ping', () => {
  const lead: SaleLead = saleLeadFacts({ id: 'ld_secret' });
  it('says enough to price the lead and nothing that identifies the borrower', () => {
    const ping = pingPayload(lead, 'pg_abcdefghijklmnop');
    expect(ping).toEqual({
      pingId: 'pg_abcdefghijklmnop',
      test: false,
      brand: 'ipaydayloans',
      source: 'google',
      loanKind: 'general',
      amount: 800,
      country: 'US',
      state: 'TX',
      zip3: '750',
      incomeBand: '2000-2999',
      ageBand: '25-34',
      payFrequency: 'biweekly',
      incomeSource: 'employment',
    });
    expect(JSON.stringify(ping)).not.toMatch(/75001|ld_secret|2400/);
  });
  it.each([
    [0, '0-999'],
    [999, '0-999'],
    [1000, '1000-1999'],
    [4999, '3000-4999'],
    [5000, '5000+'],
  ])('income %i is in band %s', (v, band) => expect(incomeBand(v)).toBe(band));
  it.each([
    [18, '18-24'],
    [25, '25-34'],
    [64, '55-64'],
    [65, '65+'],
  ])('age %i is in band %s', (v, band) => expect(ageBand(v)).toBe(band));
});

describe('hostile answers become refusals with a reason', () => {
  const b = buyer('acme', { price: { floor: 5 } });
  const ok = (body: unknown, status = 200): RawAnswer => ({ status, text: typeof body === 'string' ? body : JSON.stringify(body) });
  it.each<[string, RawAnswer, string | number]>([
    ['a bid', ok({ bid: true, price: 42.5 }), 42.5],
    ['no bid, with its reason', ok({ bid: false, reason: 'full' }), 'no bid: full'],
    ['a 500', ok('oops', 500), 'HTTP 500'],
    ['not JSON', ok('<html>'), 'answer is not JSON'],
    ['a price as a string', ok({ bid: true, price: '42' }), 'answer not valid: /price must be a number, not a string'],
    ['a negative price', ok({ bid: true, price: -3 }), 'answer not valid: /price must be at least 0'],
    ['an absurd price', ok({ bid: true, price: 1e9 }), 'answer not valid: /price must be at most 1000'],
    ['a price finer than a cent', ok({ bid: true, price: 10.005 }), 'price 10.005 is finer than a cent'],
    ['a bid without a price', ok({ bid: true }), 'a bid without a price'],
    ['an extra property', ok({ bid: true, price: 1, admin: true }), 'answer not valid: /admin unknown property "admin" (allowed: bid, price, bidId, reason)'],
    ['a huge body', { status: 200, text: 'x'.repeat(10), truncated: true }, `answer body over ${MAX_ANSWER_BYTES} bytes`],
    ['no answer in time', { error: 'no answer within 1000 ms' }, 'no answer within 1000 ms'],
  ])('bid: %s', (_, raw, expected) => {
    const got = readBid(raw, b);
    expect(got.ok ? got.price : got.reason).toBe(expected);
  });

  it('a fixed-price buyer is paid its fixed price whatever it bids; a bid at a price no buyer may bid is still no bid', () => {
    expect(readBid(ok({ bid: true, price: 99 }), buyer('f', { price: { fixed: 20 } }))).toEqual({ ok: true, price: 20 });
    expect(readBid(ok({ bid: true, price: 99.999 }), buyer('f', { price: { fixed: 20 } }))).toMatchObject({
      ok: false,
      reason: 'price 99.999 is finer than a cent',
    });
  });

  it.each<[string, RawAnswer, number | undefined, string]>([
    ['accepted with a good redirect', ok({ accepted: true, redirectUrl: 'https://offers.acme.example/x' }), 40, 'sold 40 https://offers.acme.example/x'],
    [
      'a post answer cannot raise the bid price',
      ok({ accepted: true, price: 999, redirectUrl: 'https://offers.acme.example/x' }),
      40,
      'sold 40 https://offers.acme.example/x',
    ],
    [
      'direct-post: the answer sets the price',
      ok({ accepted: true, price: 12, redirectUrl: 'https://offers.acme.example/y' }),
      undefined,
      'sold 12 https://offers.acme.example/y',
    ],
    [
      "after a bid the answer's price is not read, whatever it holds",
      ok({ accepted: true, price: '5', redirectUrl: 'https://offers.acme.example/x' }),
      40,
      'sold 40 https://offers.acme.example/x',
    ],
    ['accepted without a redirect', ok({ accepted: true, price: 12 }), 40, 'accept not taken: accepted without a redirectUrl'],
    ['direct-post: a price under the floor', ok({ accepted: true, price: 2 }), undefined, 'accept not taken: price 2 under the floor 5'],
    ['direct-post: accepted without a price', ok({ accepted: true }), undefined, 'accept not taken: accepted without a price'],
    [
      'a redirect to javascript:',
      ok({ accepted: true, redirectUrl: 'javascript:alert(1)' }),
      40,
      'accept not taken: redirect refused: javascript: is not https',
    ],
    [
      'a redirect to another host',
      ok({ accepted: true, redirectUrl: 'https://elsewhere.example/' }),
      40,
      "accept not taken: redirect refused: elsewhere.example is not one of the buyer's redirectHosts",
    ],
    ['refused', ok({ accepted: false, reason: 'duplicate' }), 40, 'refused: duplicate'],
    ['accepted as a string', ok({ accepted: 'yes' }), 40, 'answer not valid: /accepted must be a boolean, not a string'],
  ])('post: %s', (_, raw, offered, expected) => {
    const got = readPostAnswer(raw, b, offered);
    expect(got.ok ? `sold ${got.price} ${got.redirectUrl}` : got.reason).toBe(expected);
  });
});

describe('contacts for duplicates and opt-outs', () => {
  it.each([
    ['(214) 555-0100', '2145550100'],
    ['+1 214 555 0100', '2145550100'],
    ['214.555.0100', '2145550100'],
    ['555-0100', undefined],
    ['1145550100', undefined],
    ['0412 345 678', '0412345678'],
    ['+61 412 345 678', '0412345678'],
    ['(02) 9374 4000', undefined],
  ])('phone %s → %s', (raw, norm) => expect(normalisePhone(raw)).toBe(norm));
  it.each([
    [' Ana@Example.COM ', 'ana@example.com'],
    ['a.n.a+loans@gmail.com', 'ana@gmail.com'],
    ['ana+x@googlemail.com', 'ana@gmail.com'],
    ['a.na@example.com', 'a.na@example.com'],
    ['@example.com', undefined],
    ['ana@', undefined],
  ])('email %s → %s', (raw, norm) => expect(normaliseEmail(raw)).toBe(norm));
  it('hashes the same contact written two ways alike, under a key, without the contact in clear', () => {
    const key = Buffer.alloc(32, 7);
    const a = contactHashes(key, { phone: '(214) 555-0100', email: 'Ana@Example.com' });
    const b = contactHashes(key, { phone: '2145550100', email: 'ana@example.com' });
    expect(a).toEqual(b);
    expect(a).toHaveLength(2);
    expect(a.join()).not.toMatch(/2145550100|ana/);
    expect(contactHashes(Buffer.alloc(32, 8), { phone: '2145550100', email: '' })[0]).not.toBe(a[0]);
  });
});
