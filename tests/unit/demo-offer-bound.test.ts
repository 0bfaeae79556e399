/**
 * The demo lender's offer as the borrower and a stranger meet it: the link opens only on the
 * brand it was made on and only at its page path (its API route asked for directly is a 404);
 * the client router never fetches it as a page; the page names the kind of loan the brand's
 * request was for and gives the expiry in the borrower's own region.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { consoleHostsOf, decide, type Door } from '../../engine/frontDoor/frontDoor';
import { isClientPagePath } from '../../engine/browser/requestPath';
import { DEMO_OFFER_PATH, demoOfferKey, openDemoOffer, sealDemoOffer } from '../../engine/sale/demoOffer';
import { demoOfferPage, localTime, loanKindText } from '../../engine/sale/demoOfferPage';
import { timeZoneOf } from '../../engine/geo/regionTimeZones';
import { AU_STATES, CA_PROVINCES } from '../../engine/browser/regions';
import { STATES } from '../../engine/geo/states';

const { brands, layouts } = readSources({ extraDir: '' });
const door: Door = {
  catalog: buildCatalog(brands, layouts),
  previewModeId: null,
  consoleHosts: consoleHostsOf({}),
  trustForwardedHost: false,
  production: true,
  env: {},
  demoLender: true,
};
const KEY = demoOfferKey(Buffer.alloc(32, 3));
const NOW = new Date('2026-11-26T15:00:00Z');
const OFFER = { amount: 800, loanKind: 'general' as const, currency: 'USD', priceCents: 1200, country: 'US', region: 'TX' };

describe('the offer is bound to the brand it was made on', () => {
  const made = sealDemoOffer(OFFER, NOW, KEY, 'ipaydayloans');
  it('opens on its own brand', () => {
    expect(openDemoOffer(made, NOW, [KEY], 'ipaydayloans')).toMatchObject({ ok: true, offer: OFFER });
  });
  it.each(['ustitleloans', 'weloans', ''])('is not genuine on %j', (other) => {
    expect(openDemoOffer(made, NOW, [KEY], other)).toMatchObject({ ok: false, status: 403, title: 'This offer link is not genuine' });
    expect(demoOfferPage(openDemoOffer(made, NOW, [KEY], other), 'title').status).toBe(403);
  });
});

describe('the offer page has one address', () => {
  it.each([
    ['ipaydayloans.com', '/api/demo-lender/offer?o=o2.abc'],
    ['ustitleloans.localhost', '/api/demo-lender/offer'],
    ['ipaydayloans.com', '/API/Demo-Lender/Offer?o=o2.abc'],
    ['ipaydayloans.com', '/api/demo-lender/offer/'],
    ['ipaydayloans.com', '/api/demo-lender/offer.json'],
    ['ipaydayloans.com', '/api//demo-lender/offer'],
    ['evil.com', '/api/demo-lender/offer?o=o2.abc'],
  ])('its API route asked for directly on %s: %s → 404', (host, target) => {
    expect(decide({ method: 'GET', target, host }, door)).toMatchObject({ kind: 'refuse', status: 404 });
  });

  it('the page path hands the route the offer and nothing else the visitor sent', () => {
    expect(decide({ method: 'GET', target: '/demo-lender/offer?brand=weloans&o=o2.abc&o=o2.def&x=1', host: 'ipaydayloans.com' }, door)).toEqual({
      kind: 'demoLender',
      brand: 'ipaydayloans',
      url: '/api/demo-lender/offer?o=o2.abc',
    });
  });

  it('the demo lender keeps its other routes (this server pings and posts them)', () => {
    expect(decide({ method: 'POST', target: '/api/demo-lender/post', host: '127.0.0.1' }, door)).toMatchObject({ kind: 'next' });
  });
});

describe('Continue to the offer is a plain navigation', () => {
  it.each([DEMO_OFFER_PATH, `${DEMO_OFFER_PATH}?o=o2.abc`])('%s is not a client-router page', (path) => {
    expect(isClientPagePath(path)).toBe(false);
  });
});

describe('the offer page in the borrower’s terms', () => {
  it.each([
    ['general', 'payday', 'Payday loan'],
    ['general', 'bad-credit', 'Bad credit loan'],
    ['general', 'installment', 'Installment loan'],
    ['general', 'personal', 'Personal loan'],
    ['general', 'general', 'Loan'],
    ['title', 'title', 'Title loan'],
  ] as const)('a %s request on a %s brand is shown as "%s"', (loanKind, product, text) => {
    expect(loanKindText({ loanKind }, product)).toBe(text);
    const page = demoOfferPage({ ok: true, offer: { ...OFFER, loanKind, expiresAt: NOW.getTime() } }, product);
    expect(page.body).toContain(`<dt>Loan type</dt><dd>${text}</dd>`);
  });

  it.each([
    ['US', 'TX', 'Thursday, November 26, 2026 at 9:00 AM CST'],
    ['US', 'CA', 'Thursday, November 26, 2026 at 7:00 AM PST'],
    ['US', 'NY', 'Thursday, November 26, 2026 at 10:00 AM EST'],
    ['US', 'HI', 'Thursday, November 26, 2026 at 5:00 AM HST'],
    ['CA', 'ON', 'Thursday, November 26, 2026 at 10:00 a.m. EST'],
    ['CA', 'NS', 'Thursday, November 26, 2026 at 11:00 a.m. AST'],
    ['AU', 'NSW', 'Friday 27 November 2026 at 2:00 am AEDT'],
    ['AU', 'WA', 'Thursday 26 November 2026 at 11:00 pm AWST'],
  ])('expiry for a borrower in %s-%s: %s', (country, region, text) => {
    expect(localTime(NOW.getTime(), { country, region })).toBe(text);
    expect(demoOfferPage({ ok: true, offer: { ...OFFER, country, region, expiresAt: NOW.getTime() } }, 'payday').body).toContain(
      `<dt>Offer valid until</dt><dd>${text}</dd>`,
    );
  });

  it('every state, province and territory the brands serve has a time zone', () => {
    for (const s of STATES) expect(timeZoneOf('US', s.code.toUpperCase()), s.code).toMatch(/^(America|Pacific)\//);
    for (const r of CA_PROVINCES) expect(timeZoneOf('CA', r.code), r.code).toMatch(/^America\//);
    for (const r of AU_STATES) expect(timeZoneOf('AU', r.code), r.code).toMatch(/^Australia\//);
  });
});
