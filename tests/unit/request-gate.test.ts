/** What server.mjs decides before Next sees a request (engine/http/requestGate.mjs). */
import { describe, expect, it } from 'vitest';
import { brandRequestUrl, clientDataRequest, internalPathRefused, needsProxy, plainPath, proxiedUrl, PROXY_PREFIX } from '../../engine/http/requestGate.mjs';

const ID = 'p'.repeat(32);

describe('the internal prefix', () => {
  it.each([
    ['/_brand/ipaydayloans/payday-loans', 'ipaydayloans', undefined, true],
    ['/_brand', 'ipaydayloans', undefined, true],
    ['/_BRAND/ipaydayloans', 'ipaydayloans', undefined, true],
    [plainPath('/%5Fbrand/ipaydayloans/payday-loans'), 'ipaydayloans', undefined, true],
    [plainPath('//_brand//ipaydayloans'), undefined, undefined, true],
    ['/_brand/ipaydayloans/payday-loans', undefined, '1', true],
    ['/_brand/ipaydayloans/payday-loans', undefined, 'x'.repeat(32), true],
    ['/_brand/ipaydayloans/payday-loans', undefined, ID, false],
    // the client router's data requests: only for the brand of the host
    ['/_next/data/build-1/_brand/ipaydayloans/payday-loans.json', 'ipaydayloans', undefined, false],
    ['/_next/data/build-1/_brand/ipaydayloans.json', 'ipaydayloans', undefined, false],
    ['/_next/data/build-1/_brand/usbadcreditloans/payday-loans.json', 'ipaydayloans', undefined, true],
    ['/_next/data/build-1/_brand/ipaydayloans/payday-loans.json', undefined, undefined, true],
    // the browser's rewrite names the placeholder brand "_": the host's brand, or proxy.ts decides
    ['/_next/data/build-1/_brand/_/payday-loans.json', 'ipaydayloans', undefined, false],
    ['/_next/data/build-1/_brand/_.json', 'ipaydayloans', undefined, false],
    ['/_next/data/build-1/_brand/_/payday-loans.json', undefined, undefined, false],
    ['/_brand/_/payday-loans', 'ipaydayloans', undefined, true],
    ['/_next/data/build-1/payday-loans.json', 'ipaydayloans', undefined, false],
    // the hand-over prefix is server.mjs's alone: refused for every client, with any header
    ['/__loansites-proxy/payday-loans', 'ipaydayloans', undefined, true],
    ['/__loansites-proxy', undefined, undefined, true],
    ['/__loansites-proxy?state=ca', 'ipaydayloans', undefined, true],
    ['/__LOANSITES-PROXY/x', 'ipaydayloans', undefined, true],
    [plainPath('/%5F_loansites-proxy/x'), 'ipaydayloans', undefined, true],
    [plainPath('//__loansites-proxy//x'), undefined, undefined, true],
    ['/__loansites-proxy/payday-loans', undefined, ID, true],
    ['/_next/data/build-1/__loansites-proxy/payday-loans.json', 'ipaydayloans', undefined, true],
    ['/_next/data/build-1/__loansites-proxy.json', undefined, undefined, true],
    ['/__loansites-proxyx', undefined, undefined, false],
    ['/_brandx', undefined, undefined, false],
    ['/payday-loans', undefined, undefined, false],
  ] as const)('%s on %s (revalidate header %s) refused: %s', (path, routedBrand, revalidateHeader, refused) => {
    expect(internalPathRefused({ path, routedBrand, revalidateHeader, previewModeId: ID })).toBe(refused);
  });

  it('without a build (no preview-mode id) nothing passes', () => {
    expect(internalPathRefused({ path: '/_brand/a/b', routedBrand: 'a', revalidateHeader: '', previewModeId: null })).toBe(true);
  });
});

describe("the client router's data requests", () => {
  it.each([
    ['/_next/data/b1/_brand/_/payday-loans.json', 'ipaydayloans', { url: '/_next/data/b1/_brand/ipaydayloans/payday-loans.json', proxy: false }],
    ['/_next/data/b1/_brand/_.json?x=1', 'ipaydayloans', { url: '/_next/data/b1/_brand/ipaydayloans.json?x=1', proxy: false }],
    [
      '/_next/data/b1/_brand/_/location/tx.json?brand=_&path=location',
      'weloans',
      { url: '/_next/data/b1/_brand/weloans/location/tx.json?brand=_&path=location', proxy: false },
    ],
    // a host proxy.ts routes (development, blog hosts, brands added after the build): handed over
    ['/_next/data/b1/_brand/_/payday-loans.json', undefined, { url: '/_next/data/b1/__loansites-proxy/payday-loans.json', proxy: true }],
    ['/_next/data/b1/_brand/_.json', undefined, { url: '/_next/data/b1/__loansites-proxy.json', proxy: true }],
    // by page path (the router's background HEAD after a navigation; getAssetPathFromRoute: / → index.json, /index… → index/index…)
    [
      '/_next/data/b1/payday-loans.json?brand=_&path=payday-loans',
      'ipaydayloans',
      { url: '/_next/data/b1/_brand/ipaydayloans/payday-loans.json?brand=_&path=payday-loans', proxy: false },
    ],
    ['/_next/data/b1/location/tx.json', 'ipaydayloans', { url: '/_next/data/b1/_brand/ipaydayloans/location/tx.json', proxy: false }],
    ['/_next/data/b1/index.json', 'ipaydayloans', { url: '/_next/data/b1/_brand/ipaydayloans.json', proxy: false }],
    ['/_next/data/b1/index/index.json', 'ipaydayloans', { url: '/_next/data/b1/_brand/ipaydayloans/index.json', proxy: false }],
    ['/_next/data/b1/indexes.json', 'ipaydayloans', { url: '/_next/data/b1/_brand/ipaydayloans/indexes.json', proxy: false }],
    ['/_next/data/b1/payday-loans.json', undefined, { url: '/_next/data/b1/__loansites-proxy/payday-loans.json', proxy: true }],
    ['/_next/data/b1/index.json', undefined, { url: '/_next/data/b1/__loansites-proxy.json', proxy: true }],
    // not one: another brand segment, the internal prefix (refused before this), already handed over, runs of slashes, not a data request
    ['/_next/data/b1/_brand/__/payday-loans.json', 'ipaydayloans', undefined],
    ['/_next/data/b1/_brand/ipaydayloans/x.json', 'ipaydayloans', undefined],
    ['/_next/data/b1/__loansites-proxy/x.json', undefined, undefined],
    ['/_next/data/b1/a//b.json', 'ipaydayloans', undefined],
    ['/_next/data/b1/payday-loans', 'ipaydayloans', undefined],
    ['/_next/static/chunks/a.js', 'ipaydayloans', undefined],
    ['/_brand/_/payday-loans', 'ipaydayloans', undefined],
    ['/_/x', undefined, undefined],
  ] as const)('%s on %s → %j', (url, routedBrand, expected) => {
    expect(clientDataRequest(url, routedBrand)).toEqual(expected);
  });
});

describe("what Next is given for a routed host's request", () => {
  it.each([
    ['/', '/_brand/ipaydayloans'],
    ['/?gclid=x', '/_brand/ipaydayloans?gclid=x'],
    ['/payday-loans', '/_brand/ipaydayloans/payday-loans'],
    ['/location/tx/houston?source1=a&b=2', '/_brand/ipaydayloans/location/tx/houston?source1=a&b=2'],
    ['/apiary', '/_brand/ipaydayloans/apiary'],
    ['/statistics', '/_brand/ipaydayloans/statistics'],
    ['/logos', '/_brand/ipaydayloans/logos'],
    ['/robots', '/_brand/ipaydayloans/robots'],
    // the SEO files: canonical sitemap numbers only; any other sitemap path is the brand's 404 page
    ['/robots.txt', '/api/seo/ipaydayloans/robots.txt'],
    ['/sitemap.xml', '/api/seo/ipaydayloans/sitemap.xml'],
    ['/sitemaps/0.xml', '/api/seo/ipaydayloans/sitemap-0.xml'],
    ['/sitemaps/12.xml?x=1', '/api/seo/ipaydayloans/sitemap-12.xml?x=1'],
    ['/sitemaps/00.xml', '/_brand/ipaydayloans/sitemaps/00.xml'],
    ['/sitemaps/12345.xml', '/_brand/ipaydayloans/sitemaps/12345.xml'],
    ['/sitemaps/x', '/_brand/ipaydayloans/sitemaps/x'],
    // as it is: Next's own, the internal prefix, the API, public files, and what Next redirects first
    ['/_next/static/x.js', undefined],
    ['/_brand/ipaydayloans/payday-loans', undefined],
    ['/_brand', undefined],
    ['/_404', undefined],
    ['/api/leads', undefined],
    ['/api', undefined],
    ['/static/ping.txt', undefined],
    ['/logos/a.svg', undefined],
    ['/favicon.ico', undefined],
    ['/payday-loans/', undefined],
    ['//payday-loans', undefined],
    ['/a//b', undefined],
    ['/a\\b', undefined],
  ] as const)('%s → %s', (url, expected) => {
    expect(brandRequestUrl(url, 'ipaydayloans')).toBe(expected);
  });
});

describe('what goes through proxy.ts', () => {
  it.each([
    // a cached page of a routed host never does
    [false, 'ipaydayloans', '/payday-loans', false],
    [false, 'ipaydayloans', '/', false],
    [false, 'ipaydayloans', '/location/tx/houston?source1=x', false],
    [false, 'ipaydayloans', '/_next/data/AbCdEf/location/tx.json', false],
    // what only the proxy can do
    [false, 'ipaydayloans', '/location/TX', true],
    [false, 'ipaydayloans', '/search?state=ca', true],
    [false, 'ipaydayloans', '/search?type=x&state=', true],
    [false, undefined, '/', true],
    [false, undefined, '/blog/x', true],
    // development: every page request
    [true, 'ipaydayloans', '/payday-loans', true],
    // never: the API, Next's own requests (assets, HMR, the client router's data), the internal prefix, public files
    [true, undefined, '/api/leads', false],
    [false, undefined, '/_next/data/AbCdEf/location/tx.json', false],
    [true, undefined, '/_next/data/development/location/tx.json', false],
    [true, undefined, '/_next/webpack-hmr', false],
    [false, undefined, '/_brand/ipaydayloans/payday-loans', false],
    // a trailing slash: Next's redirect to the path without it comes first
    [false, undefined, '/payday-loans/', false],
    [true, 'ipaydayloans', '/location/TX/', false],
    [true, undefined, '/', true],
    [false, undefined, '/_next/static/chunks/a.js', false],
    [false, undefined, '/static/ping.txt', false],
    [false, undefined, '/logos/a.svg', false],
    [false, undefined, '/favicon.ico', false],
  ] as const)('dev %s, routed to %s, %s → %s', (dev, routedBrand, url, expected) => {
    expect(needsProxy({ dev, routedBrand, url })).toBe(expected);
  });
});

describe('the hand-over to proxy.ts', () => {
  it.each([
    ['/', `${PROXY_PREFIX}`],
    ['/?state=ca', `${PROXY_PREFIX}?state=ca`],
    ['/location/TX', `${PROXY_PREFIX}/location/TX`],
    ['/search?state=ca&x=1', `${PROXY_PREFIX}/search?state=ca&x=1`],
  ])('%s → %s', (url, expected) => {
    expect(proxiedUrl(url)).toBe(expected);
  });

  it('the prefix is a path no page, asset or API route has', () => {
    expect(PROXY_PREFIX).toMatch(/^\/__[a-z-]+$/);
    expect(needsProxy({ dev: false, routedBrand: 'ipaydayloans', url: '/payday-loans' })).toBe(false);
  });
});
