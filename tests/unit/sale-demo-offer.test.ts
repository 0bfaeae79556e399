/**
 * The demo lender's offer link and page: the offer sealed by the demo lender opens only with this
 * server's key and only until it expires; a missing, damaged, forged or expired link gets a 4xx
 * page that says which, with everything escaped.
 */
import { describe, expect, it } from 'vitest';
import { demoPostAnswer } from '../../engine/sale/demoLender';
import { DEMO_OFFER_TTL_MS, demoOfferKey, demoOfferUrl, openDemoOffer, sealDemoOffer, type OpenedOffer } from '../../engine/sale/demoOffer';
import { demoOfferPage } from '../../engine/sale/demoOfferPage';

const KEY = demoOfferKey(Buffer.alloc(32, 7));
const OLD_KEY = demoOfferKey(Buffer.alloc(32, 8));
const NOW = new Date('2026-11-26T15:00:00Z');
const OFFER = { amount: 800, loanKind: 'general' as const, currency: 'USD', priceCents: 1200, country: 'US', region: 'TX' };
const BRAND = 'ipaydayloans';
const sealed = sealDemoOffer(OFFER, NOW, KEY, BRAND);
const flip = (t: string, at: number) => t.slice(0, at) + (t[at] === 'A' ? 'B' : 'A') + t.slice(at + 1);
const later = (ms: number) => new Date(NOW.getTime() + ms);

describe('the sealed offer in the link', () => {
  it('fits a buyerLeadId (128 characters) and shows nothing of the request', () => {
    expect(sealed.length).toBeLessThanOrEqual(128);
    // neither in the bytes the link carries (encrypted: no run of the offer's text is there) …
    const carried = Buffer.from(sealed.slice('o2.'.length), 'base64url').toString('latin1');
    for (const part of ['800|g', 'USD|1200', '|US|TX']) expect(carried).not.toContain(part);
    // … nor readable in the link (4 characters or more: a shorter run turns up in random base64url by chance)
    expect(sealed).not.toMatch(/1200|general/);
    expect(sealDemoOffer(OFFER, NOW, KEY, BRAND)).not.toBe(sealed); // a fresh iv each time
  });

  it.each<[string, string | null, Date, Buffer[], Partial<OpenedOffer>]>([
    ['genuine', sealed, NOW, [KEY], { ok: true, offer: { ...OFFER, expiresAt: NOW.getTime() + DEMO_OFFER_TTL_MS } } as Partial<OpenedOffer>],
    ['genuine, sealed under a key since rotated (still held)', sealDemoOffer(OFFER, NOW, OLD_KEY, BRAND), NOW, [KEY, OLD_KEY], { ok: true }],
    ['just before it lapses', sealed, later(DEMO_OFFER_TTL_MS - 1000), [KEY], { ok: true }],
    ['expired', sealed, later(DEMO_OFFER_TTL_MS), [KEY], { ok: false, status: 410, title: 'This demo offer has expired' }],
    ['no offer in the link', null, NOW, [KEY], { ok: false, status: 400, title: 'This link has no offer in it' }],
    ['cut short', sealed.slice(0, 30), NOW, [KEY], { ok: false, status: 400, title: 'This offer link is damaged' }],
    ['not our format', '<script>alert(1)</script>', NOW, [KEY], { ok: false, status: 400 }],
    ['another version', `o1${sealed.slice(2)}`, NOW, [KEY], { ok: false, status: 400 }],
    ['one character changed', flip(sealed, 40), NOW, [KEY], { ok: false, status: 403, title: 'This offer link is not genuine' }],
    ['made with another key (another server, or forged)', sealDemoOffer(OFFER, NOW, OLD_KEY, BRAND), NOW, [KEY], { ok: false, status: 403 }],
    [
      'the well-known demo secret is no help to a forger',
      sealDemoOffer(OFFER, NOW, demoOfferKey(Buffer.from('demo-lender-not-a-secret')), BRAND),
      NOW,
      [KEY],
      { ok: false, status: 403 },
    ],
  ])('%s', (_, token, now, keys, expected) => {
    expect(openDemoOffer(token, now, keys, BRAND)).toMatchObject(expected);
  });

  it('is what the demo lender answers an accepted post with, and what the continue link carries', () => {
    expect(demoPostAnswer({ amount: 800, state: 'TX', loanKind: 'general' }, () => sealed)).toEqual({ accepted: true, buyerLeadId: sealed });
    expect(demoPostAnswer({ amount: 5000, state: 'TX', loanKind: 'general' }, () => sealed)).toMatchObject({ accepted: false });
    expect(demoOfferUrl(sealed)).toBe(`/demo-lender/offer?o=${sealed}`);
    expect(demoOfferUrl('demo')).toBe('/demo-lender/offer');
  });
});

describe('the offer page', () => {
  it('shows the offer, marked as a demonstration', () => {
    const page = demoOfferPage(
      openDemoOffer(sealDemoOffer({ ...OFFER, loanKind: 'title', priceCents: 2000 }, NOW, KEY, 'ustitleloans'), NOW, [KEY], 'ustitleloans'),
      'title',
    );
    expect(page.status).toBe(200);
    expect(page.headers).toMatchObject({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });
    expect(page.body).toContain('Demonstration — not a real lender.');
    expect(page.body).toContain('<h1>Demo Lender: your demo offer</h1>');
    expect(page.body).toContain('<dt>Amount</dt><dd>$800 USD</dd><dt>Loan type</dt><dd>Title loan</dd>');
    expect(page.body).toContain('Offer valid until</dt><dd>Friday, November 27, 2026 at 9:00 AM CST</dd>');
    expect(page.body).toContain('Demo Lender paid $20.00 for this request');
  });

  it.each([
    ['forged', flip(sealed, 40), 403, 'This offer link is not genuine'],
    ['expired', sealed, 410, 'This demo offer has expired'],
    ['missing', null, 400, 'This link has no offer in it'],
  ] as const)('a %s link: a %s page that says so and leads back to the site', (_, token, status, title) => {
    const page = demoOfferPage(openDemoOffer(token, later(DEMO_OFFER_TTL_MS), [KEY], BRAND), 'payday');
    expect(page.status).toBe(status);
    expect(page.body).toContain(`<h1>${title}</h1>`);
    expect(page.body).toContain('<a href="/">Back to the site</a>');
    expect(page.body).toContain('Demonstration — not a real lender.');
  });

  it('escapes what it shows', () => {
    const page = demoOfferPage({ ok: false, status: 400, title: '<img src=x onerror=alert(1)>', reason: '"&\'' }, 'payday');
    expect(page.body).not.toContain('<img');
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).toContain('&quot;&amp;&#39;');
  });
});
