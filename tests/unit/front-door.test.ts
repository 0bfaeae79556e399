/**
 * What happens to a request (engine/frontDoor/frontDoor.ts), decided for the real brand files: the
 * refusals, the internal prefix and its spellings, the client router's data requests, what a
 * brand host's path becomes, every host of every brand and the hosts that are not one, and the
 * policies a page is sent with.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { hostsOfBrand } from '../../engine/site/hosts';
import { pagePolicy } from '../../engine/site/pagePolicy';
import { consoleHostsOf, decide, permissionsPolicy, type Decision, type Door } from '../../engine/frontDoor/frontDoor';
import { answerOf } from '../../engine/frontDoor/answers';
import { rememberingPages } from '../../engine/frontDoor/server';
import { isClientPagePath, readTarget } from '../../engine/browser/requestPath';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const { brands, layouts } = readSources({ extraDir: '' });
const catalog = buildCatalog(brands, layouts, BLOCK_SPECS);
const ID = 'p'.repeat(32);
const door: Door = { catalog, previewModeId: ID, consoleHosts: consoleHostsOf({}), trustForwardedHost: false, production: true, env: {} };
const on = (host: string, target: string, extra: { method?: string; revalidate?: string } = {}): Decision =>
  decide({ method: extra.method ?? 'GET', target, host, revalidate: extra.revalidate }, door);
const IPAYDAY = 'ipaydayloans.localhost';
const NOT_FOUND = { kind: 'refuse', status: 404 };
const BRAND_404 = { kind: 'notFound', brand: 'ipaydayloans', url: '/_brand/ipaydayloans/_not-found' };

describe('refused before anything else', () => {
  it.each([
    ['TRACE', '/', 405],
    ['TRACK', '/payday-loans', 405],
    ['CONNECT', '/', 405],
    ['OPTIONS', '*', 405],
    ['GET', 'http://evil.com/', 400],
    ['GET', 'evil', 400],
  ] as const)('%s %s → %s', (method, target, status) => {
    expect(on(IPAYDAY, target, { method })).toMatchObject({ kind: 'refuse', status });
    expect(answerOf(on(IPAYDAY, target, { method }))?.headers.Allow).toBe(status === 405 ? 'GET, HEAD, POST' : undefined);
  });
});

describe('the internal prefix', () => {
  it.each([
    [IPAYDAY, '/_brand/ipaydayloans/payday-loans', undefined, NOT_FOUND],
    [IPAYDAY, '/_brand', undefined, NOT_FOUND],
    [IPAYDAY, '/_BRAND/ipaydayloans', undefined, NOT_FOUND],
    [IPAYDAY, '/%5Fbrand/ipaydayloans/payday-loans', undefined, NOT_FOUND],
    ['evil.com', '//_brand//ipaydayloans', undefined, NOT_FOUND],
    ['evil.com', '/_brand/ipaydayloans/payday-loans', '1', NOT_FOUND],
    ['evil.com', '/_brand/ipaydayloans/payday-loans', 'x'.repeat(32), NOT_FOUND],
    [IPAYDAY, '/_brand/ipaydayloans/payday-loans', '', NOT_FOUND],
    // Next's own revalidation, with the build's preview-mode id, from any host
    ['evil.com', '/_brand/ipaydayloans/payday-loans', ID, { kind: 'next', url: '/_brand/ipaydayloans/payday-loans' }],
    // the client router's data requests: only for the brand of the host (a page under no
    // experiment: one under an experiment is given the visitor's variant, front-door-experiments.test.ts)
    [
      IPAYDAY,
      '/_next/data/build-1/_brand/ipaydayloans/installment-loans.json',
      undefined,
      { kind: 'next', url: '/_next/data/build-1/_brand/ipaydayloans/installment-loans.json' },
    ],
    [IPAYDAY, '/_next/data/build-1/_brand/ipaydayloans.json', undefined, { kind: 'next', url: '/_next/data/build-1/_brand/ipaydayloans.json' }],
    [IPAYDAY, '/_next/data/build-1/_brand/usbadcreditloans/payday-loans.json', undefined, NOT_FOUND],
    [IPAYDAY, '/_next/data/build-1/%5Fbrand/usbadcreditloans/payday-loans.json', undefined, NOT_FOUND],
    ['evil.com', '/_next/data/build-1/_brand/ipaydayloans/payday-loans.json', undefined, NOT_FOUND],
    [IPAYDAY, '/_next/data/build-1/_brand/__/payday-loans.json', undefined, NOT_FOUND],
    [IPAYDAY, '/_brand/_/payday-loans', undefined, NOT_FOUND],
    // the old hand-over prefix is a path like any other: the brand's 404 page, never a page
    [IPAYDAY, '/__loansites-proxy/payday-loans', undefined, BRAND_404],
    [IPAYDAY, '/__loansites-proxy', undefined, BRAND_404],
    [IPAYDAY, '/__LOANSITES-PROXY/x', undefined, BRAND_404],
    [IPAYDAY, '/_brandx', undefined, BRAND_404],
    [IPAYDAY, '/_404', undefined, BRAND_404],
    ['evil.com', '/__loansites-proxy', undefined, { kind: 'unknownHost', host: 'evil.com' }],
    [IPAYDAY, '/installment-loans', undefined, { kind: 'page', url: '/_brand/ipaydayloans/installment-loans' }],
  ] as const)('%s %s (revalidate header %s) → %j', (host, target, revalidate, expected) => {
    expect(on(host, target, { revalidate })).toMatchObject(expected);
  });

  it.each([
    [IPAYDAY, '/_next/image?url=%2Flogos%2F&w=64&q=75'],
    [IPAYDAY, '/_next/image?url=%2F_brand%2Fipaydayloans&w=64&q=75'],
    ['evil.com', '/_next/image?url=%2Ffavicon.ico&w=64&q=75'],
    ['console.localhost', '/_next/image?url=%2Fapi%2Fbrand-logo%2Fx.png&w=64&q=75'],
    [IPAYDAY, '/_next/image'],
    [IPAYDAY, '/_NEXT/Image?url=%2Ffavicon.ico&w=64&q=75'],
    [IPAYDAY, '//_next/image?url=%2Ffavicon.ico&w=64&q=75'],
    [IPAYDAY, '/_next/image/?url=%2Ffavicon.ico&w=64&q=75'],
  ])("Next's image optimizer (no page uses it; it fetches internal paths past the door) is 404: %s %s", (host, target) => {
    expect(on(host, target)).toMatchObject(NOT_FOUND);
  });

  it('a request without a Host header (HTTP/1.1 must send one) is refused with 400 naming it; an empty one is a host of no brand', () => {
    expect(decide({ method: 'GET', target: '/payday-loans' }, door)).toEqual({ kind: 'refuse', status: 400, reason: 'The request has no Host header' });
    expect(decide({ method: 'GET', target: '/', host: '' }, door)).toMatchObject({ kind: 'unknownHost' });
  });

  it('without a build (no preview-mode id) nothing passes', () => {
    expect(decide({ method: 'GET', target: '/_brand/a/b', host: IPAYDAY, revalidate: '' }, { ...door, previewModeId: null })).toMatchObject(NOT_FOUND);
  });
});

describe('dot segments and encoded separators never reach another page', () => {
  const dots = ['..', '.', '%2e%2e', '%2E%2E', '.%2e', '%2e.', '%2e', '%252e%252e', '%25252e%25252e'];
  const seps = ['/', '\\', '%2f', '%2F', '%5c', '%5C', '%252f'];
  const prefixes = ['', '/api', '/api/seo', '/static', '/logos', '/_next', '/_next/static', '/_next/data/b1', '/payday-loans', '/blog', '/x/y'];
  const targets: string[] = [];
  for (const prefix of prefixes)
    for (const dot of dots)
      for (const sep of seps) {
        targets.push(`${prefix}/${dot}${sep}_brand${sep}usbadcreditloans${sep}apply`);
        targets.push(`${prefix}/${dot}/${dot}/_brand/usbadcreditloans/apply`);
      }
  targets.push('/api/%2e%2e/_brand/usbadcreditloans/apply', '/api/..', '/a/.', '/%2e', '/sitemaps/..%2f..%2f_brand/x');

  it(`${new Set(targets).size} spellings, each refused with 400 or 404`, () => {
    for (const target of new Set(targets)) {
      const d = on('ipaydayloans.com', target);
      expect(d.kind === 'refuse' && [400, 404].includes(d.status), `${target} → ${JSON.stringify(d)}`).toBe(true);
    }
  });

  it.each([
    ['/api/%2e%2e/_brand/usbadcreditloans/apply', false],
    ['/api/..%2F_brand', false],
    ['/a\\..\\_brand', false],
    ['/payday-loans/%zz', false],
    ['/payday-loans', true],
    ['/sitemaps/1.xml', true],
    ['/_next/static/chunks/a.b.js', true],
    ['/a..b/c.', true],
    ['/%5Fbrand/x', true],
  ])('readTarget(%s) accepted: %s', (target, ok) => {
    expect(readTarget(target).ok).toBe(ok);
  });
});

describe('a query of more parameters than any link has', () => {
  // Next looks every parameter's name up among all of them: 3,000 cost an API route or a console page 0.24 s
  const query = (count: number, param = 'a=1') => `?${Array(count).fill(param).join('&')}`;

  it.each([
    [IPAYDAY, '/api/sale-status'],
    [IPAYDAY, '/robots.txt'],
    [IPAYDAY, '/payday-loans'],
    [IPAYDAY, '/_next/data/b1/_brand/_/payday-loans.json'],
    ['console.localhost', '/login'],
  ])('%s %s with 257 parameters is refused with 400 and the reason', (host, path) => {
    const d = on(host, path + query(257));
    expect(d).toEqual({ kind: 'refuse', status: 400, reason: 'The query has more than 256 parameters' });
    expect(answerOf(d)?.status).toBe(400);
  });

  it('256 parameters, repeated or not, and empty ones between them, are the page as usual', () => {
    expect(on(IPAYDAY, `/payday-loans${query(256)}`).kind).toBe('page');
    expect(on(IPAYDAY, `/payday-loans?${Array.from({ length: 256 }, (_, i) => `utm_${i}=x`).join('&')}`).kind).toBe('page');
    expect(on(IPAYDAY, `/payday-loans${query(256)}${'&'.repeat(500)}`).kind).toBe('page');
    expect(on(IPAYDAY, `/api/sale-status${query(256)}`).kind).toBe('next');
  });
});

describe("the client router's data requests", () => {
  it.each([
    [IPAYDAY, '/_next/data/b1/_brand/_/installment-loans.json', '/_next/data/b1/_brand/ipaydayloans/installment-loans.json'],
    [IPAYDAY, '/_next/data/b1/_brand/_.json?x=1', '/_next/data/b1/_brand/ipaydayloans.json?x=1'],
    [
      'weloans.localhost',
      '/_next/data/b1/_brand/_/location/tx.json?brand=_&path=location',
      '/_next/data/b1/_brand/weloans/location/tx.json?brand=_&path=location',
    ],
    // by page path (the router's background HEAD after a navigation; / → index.json, /index… → index/index…)
    [
      IPAYDAY,
      '/_next/data/b1/installment-loans.json?brand=_&path=installment-loans',
      '/_next/data/b1/_brand/ipaydayloans/installment-loans.json?brand=_&path=installment-loans',
    ],
    [IPAYDAY, '/_next/data/b1/location/tx.json', '/_next/data/b1/_brand/ipaydayloans/location/tx.json'],
    [IPAYDAY, '/_next/data/b1/index.json', '/_next/data/b1/_brand/ipaydayloans.json'],
    [IPAYDAY, '/_next/data/b1/index/index.json', '/_next/data/b1/_brand/ipaydayloans/index.json'],
    [IPAYDAY, '/_next/data/b1/indexes.json', '/_next/data/b1/_brand/ipaydayloans/indexes.json'],
    // a blog host: its blog pages only
    ['blog.ipaydayloans.com', '/_next/data/b1/_brand/_/blog.json', '/_next/data/b1/_brand/ipaydayloans/blog.json'],
    // handed to Next as they are (Next answers 404: the browser then loads the page in full)
    [IPAYDAY, '/_next/data/b1/a//b.json', '/_next/data/b1/a//b.json'],
    // paths Next redirects first (a trailing slash, a run of slashes): its redirect names the path
    // as sent, never the host's brand at its internal path
    [IPAYDAY, '/_next/data/b1/_brand/_/', '/_next/data/b1/_brand/_/'],
    [IPAYDAY, '/_next/data/b1/_brand/_/payday-loans.json/', '/_next/data/b1/_brand/_/payday-loans.json/'],
    [IPAYDAY, '/_next/data/b1/_brand/_//payday-loans.json', '/_next/data/b1/_brand/_//payday-loans.json'],
    [IPAYDAY, '/_next/data/b1/payday-loans.json/', '/_next/data/b1/payday-loans.json/'],
    [IPAYDAY, '/_next/data/b1/payday-loans', '/_next/data/b1/payday-loans'],
    [IPAYDAY, '/_next/data/b1/__loansites-proxy/x.json', '/_next/data/b1/__loansites-proxy/x.json'],
    [IPAYDAY, '/_next/static/chunks/a.js', '/_next/static/chunks/a.js'],
  ])('%s %s → Next gets %s', (host, target, url) => {
    expect(on(host, target)).toEqual({ kind: 'next', url });
  });

  it.each([
    ['evil.com', '/_next/data/b1/_brand/_/payday-loans.json', { kind: 'unknownHost' }],
    ['evil.com', '/_next/data/b1/index.json', { kind: 'unknownHost' }],
    ['blog.ipaydayloans.com', '/_next/data/b1/_brand/_/payday-loans.json', NOT_FOUND],
    // the brand named outright: the blog host's rule still holds
    ['blog.ipaydayloans.com', '/_next/data/b1/_brand/ipaydayloans/payday-loans.json', NOT_FOUND],
    ['blog.ipaydayloans.com', '/_next/data/b1/_brand/ipaydayloans.json', NOT_FOUND],
    ['blog.ipaydayloans.com', '/_next/data/b1/_brand/ipaydayloans/blog.json', { kind: 'next', url: '/_next/data/b1/_brand/ipaydayloans/blog.json' }],
    ['evil.com', '/_next/data/b1/_brand/_/', { kind: 'unknownHost' }],
  ] as const)('%s %s → %j', (host, target, expected) => {
    expect(on(host, target)).toMatchObject(expected);
  });
});

describe("what a brand host's request becomes", () => {
  it.each([
    ['/', { kind: 'page', url: '/_brand/ipaydayloans' }],
    ['/?gclid=x', { kind: 'page', url: '/_brand/ipaydayloans?gclid=x' }],
    ['/installment-loans', { kind: 'page', url: '/_brand/ipaydayloans/installment-loans' }],
    ['/location/tx/houston?source1=a&b=2', { kind: 'page', url: '/_brand/ipaydayloans/location/tx/houston?source1=a&b=2' }],
    // brand paths that start like the API or a public folder are the brand's (here: its 404 page)
    ['/apiary', BRAND_404],
    ['/statistics', BRAND_404],
    ['/logos', BRAND_404],
    ['/robots', BRAND_404],
    // the SEO files: canonical sitemap numbers only; any other sitemap path is the brand's 404 page
    ['/robots.txt', { kind: 'seo', url: '/api/seo/ipaydayloans/robots.txt' }],
    ['/sitemap.xml', { kind: 'seo', url: '/api/seo/ipaydayloans/sitemap.xml' }],
    ['/sitemaps/0.xml', { kind: 'seo', url: '/api/seo/ipaydayloans/sitemap-0.xml' }],
    ['/sitemaps/12.xml?x=1', { kind: 'seo', url: '/api/seo/ipaydayloans/sitemap-12.xml?x=1' }],
    ['/sitemaps/00.xml', BRAND_404],
    ['/sitemaps/12345.xml', BRAND_404],
    ['/sitemaps/x', BRAND_404],
    // capitals: the lower-case page they name; a search form's state: its page
    ['/location/TX', { kind: 'redirect', status: 308, location: '/location/tx' }],
    ['/Payday-Loans?a=1', { kind: 'redirect', status: 308, location: '/payday-loans?a=1' }],
    ['/No-Such-Page', BRAND_404],
    ['/search?state=ca', { kind: 'redirect', status: 302, location: '/location/ca' }],
    // the rest of the query goes along to the state's page
    ['/search?state=ca&type=payday-loans&utm_source=x&gclid=1', { kind: 'redirect', status: 302, location: '/location/ca?utm_source=x&gclid=1' }],
    ['/search?type=x&state=', { kind: 'page', url: '/_brand/ipaydayloans/search?type=x&state=' }],
    // as they are: Next's own, the API, public files
    ['/_next/static/x.js', { kind: 'next', url: '/_next/static/x.js' }],
    ['/api/leads', { kind: 'next', url: '/api/leads' }],
    ['/api', { kind: 'next', url: '/api' }],
    ['/api//leads/', { kind: 'next', url: '/api//leads/' }],
    ['/static/ping.txt', { kind: 'next', url: '/static/ping.txt' }],
    ['/logos/a.svg', { kind: 'next', url: '/logos/a.svg' }],
    ['/favicon.ico', { kind: 'next', url: '/favicon.ico' }],
    // a trailing slash, a run of slashes, a backslash, capitals: one redirect to the page's own address, the query along
    ['/payday-loans/', { kind: 'redirect', status: 308, location: '/payday-loans' }],
    ['//payday-loans', { kind: 'redirect', status: 308, location: '/payday-loans' }],
    ['/faqs//?utm_source=x', { kind: 'redirect', status: 308, location: '/faqs?utm_source=x' }],
    ['/FAQS///', { kind: 'redirect', status: 308, location: '/faqs' }],
    ['/a//b', { kind: 'redirect', status: 308, location: '/a/b' }],
    ['/a\\b', { kind: 'redirect', status: 308, location: '/a/b' }],
    // never to another origin
    ['/\\evil.com/', { kind: 'redirect', status: 308, location: '/evil.com' }],
    ['///evil.com', { kind: 'redirect', status: 308, location: '/evil.com' }],
  ] as const)('%s → %j', (target, expected) => {
    expect(on(IPAYDAY, target)).toMatchObject(expected);
  });

  it('a blog host: / goes to /blog, its blog pages are pages, every other path is the brand 404', () => {
    expect(on('blog.ipaydayloans.com', '/')).toEqual({ kind: 'redirect', status: 308, location: '/blog' });
    expect(on('blog.ipaydayloans.com', '/blog')).toMatchObject({ kind: 'page', url: '/_brand/ipaydayloans/blog' });
    expect(on('blog.ipaydayloans.com', '/payday-loans')).toMatchObject(BRAND_404);
    expect(on('blog.ipaydayloans.com', '/Payday-Loans')).toMatchObject(BRAND_404);
    expect(on('blog.ipaydayloans.com', '/robots.txt')).toMatchObject({ kind: 'seo' });
  });

  it("a blog host's / keeps the query on its way to /blog (an ad's utm_* and click id)", () => {
    expect(on('blog.ipaydayloans.com', '/?utm_source=news&gclid=abc')).toEqual({ kind: 'redirect', status: 308, location: '/blog?utm_source=news&gclid=abc' });
  });
});

describe('the client router follows the front door', () => {
  const BRAND_PAGE_KINDS = ['page', 'notFound', 'redirect'];
  it.each([
    '/',
    '/payday-loans',
    '/location/tx/houston',
    '/No-Such-Page',
    '/apiary',
    '/blog/payday-loans/fixture-draft',
    '/robots.txt',
    '/sitemap.xml',
    '/sitemaps/3.xml',
    '/sitemaps/00.xml',
    '/api/leads',
    '/api',
    '/static/ping.txt',
    '/logos/a.svg',
    '/favicon.ico',
    '/_next/static/x.js',
    '/_next/data/build-1/_brand/_/payday-loans.json',
    '/_brand/ipaydayloans/payday-loans',
    '/_BRAND/x',
    '/a/../_brand/x',
    '/%2e%2e/x',
    '/%E0%A4%A',
  ])('a link to %s is followed on the client exactly when the front door answers it with a brand page', (path) => {
    expect(isClientPagePath(path)).toBe(BRAND_PAGE_KINDS.includes(on(IPAYDAY, path).kind));
  });
  it.each(['/payday-loans/', '/a//b', '/a\\b'])('a link to %s is loaded by the browser, which follows the one redirect to the tidy path', (path) => {
    expect(isClientPagePath(path)).toBe(false);
    expect(on(IPAYDAY, path)).toMatchObject({ kind: 'redirect', status: 308 });
  });
});

describe('hosts', () => {
  it.each([
    ['ipaydayloans.com', true],
    ['IPaydayLoans.COM', true],
    ['www.ipaydayloans.com', true],
    ['WWW.IPAYDAYLOANS.COM', true],
    ['dev.ipaydayloans.com', true],
    ['test123.ipaydayloans.com', true],
    ['ipaydayloans.localhost', true],
    ['ipaydayloans.localhost:3000', true],
    ['ipaydayloans.com:443', true],
    ['ipaydayloans.com:1', true],
    ['ipaydayloans.com:65535', true],
    ['ipaydayloans.com:080', true],
    ['ipaydayloans.com.', true],
    ['ipaydayloans.com..', true],
    ['ipaydayloans.com.:8080', true],
    // not plausible ports: an unknown host, never a page
    ['ipaydayloans.com:0', false],
    ['ipaydayloans.com:65536', false],
    ['ipaydayloans.com:99999', false],
    ['ipaydayloans.com:000080', false],
    ['ipaydayloans.com:', false],
    ['ipaydayloans.com:80:80', false],
    ['ipaydayloans.com:abc', false],
    // look-alikes
    ['ipaydayloans.com.evil.net', false],
    ['evilipaydayloans.com', false],
    ['ipaydayloans.com-evil.net', false],
    ['ipaydayloansxcom', false],
    ['xipaydayloans.com', false],
    ['evil.net.ipaydayloans.com', false],
    ['dev.www.ipaydayloans.com', false],
    ['ipaydayloans.localhost.evil.net', false],
    ['ipaydayloans.com/evil', false],
    ['', false],
  ])('%j → the ipaydayloans page: %s', (host, routed) => {
    const d = on(host, '/payday-loans');
    if (routed) expect(d).toMatchObject({ kind: 'page', brand: 'ipaydayloans' });
    else expect(d.kind).toBe('unknownHost');
  });

  it('every host of every brand, in any case, with a port and trailing dots, is that brand; the replay is keyed by the normalised host', () => {
    for (const loaded of catalog.brands.values())
      for (const host of hostsOfBrand(loaded.brand))
        for (const variant of [host, host.toUpperCase(), `${host}:3000`, `${host}.`, `${host}.:443`])
          expect(on(variant, '/'), variant).toMatchObject({ kind: 'page', brand: loaded.brand.id, host });
  });

  it('no other host is a brand: look-alikes, the dev./test123. of www., unknown hosts', () => {
    for (const loaded of catalog.brands.values()) {
      const [main] = loaded.brand.hosts;
      for (const host of [
        `${main}.evil.net`,
        `evil${main}`,
        `x.${main}`,
        `dev.www.${main}`,
        `${loaded.brand.id}.localhost.evil.net`,
        `www.${loaded.brand.id}.localhost`,
      ])
        expect(on(host, '/').kind, host).toBe('unknownHost');
    }
    for (const host of ['evil.com', 'localhost', '127.0.0.1:3000', '[::1]:3000', 'nobrand.localhost']) expect(on(host, '/').kind, host).toBe('unknownHost');
  });

  it('an unknown host is named in the answer, escaped', () => {
    const d = on('<script>x</script>', '/');
    expect(d).toEqual({ kind: 'unknownHost', host: '<script>x</script>' });
    expect(answerOf(d)).toMatchObject({ status: 404 });
    expect(answerOf(d)?.body).toContain('Server error: host &lt;script&gt;x&lt;/script&gt; not found');
  });

  it('a broken brand file: its hosts get "site unavailable" (503), its problems shown only outside production', () => {
    const broken = buildCatalog(
      brands.map((s) => (s.file.endsWith('/weloans.json') ? { ...s, text: s.text.replace('"name"', '"nom"') } : s)),
      layouts,
      BLOCK_SPECS,
    );
    const d = decide({ method: 'GET', target: '/', host: 'weloans.ca' }, { ...door, catalog: broken });
    expect(d).toEqual({ kind: 'unavailable', brand: 'weloans', problems: [] });
    expect(answerOf(d)?.status).toBe(503);
    const dev = decide({ method: 'GET', target: '/', host: 'weloans.ca' }, { ...door, catalog: broken, production: false });
    expect(dev.kind === 'unavailable' && dev.problems.length).toBeGreaterThan(0);
    expect(decide({ method: 'GET', target: '/', host: IPAYDAY }, { ...door, catalog: broken })).toMatchObject({ kind: 'page' });
  });

  it('console hosts: console.localhost outside a deployment, and CONSOLE_HOSTS; a deployment without CONSOLE_HOSTS has none', () => {
    expect(on('console.localhost:3000', '/')).toEqual({ kind: 'console', host: 'console.localhost', url: '/_console' });
    const deployed = { ...door, consoleHosts: consoleHostsOf({ CONSOLE_HOSTS: 'ops.example.com, Console.Example.net', LOANSITES_DEPLOYMENT: 'production' }) };
    expect(decide({ method: 'GET', target: '/leads', host: 'console.example.net' }, deployed)).toMatchObject({ kind: 'console', url: '/_console/leads' });
    expect(decide({ method: 'GET', target: '/', host: 'console.localhost' }, deployed).kind).toBe('unknownHost');
    const bare = { ...door, consoleHosts: consoleHostsOf({ LOANSITES_DEPLOYMENT: 'production' }) };
    expect(bare.consoleHosts.size).toBe(0);
    expect(decide({ method: 'GET', target: '/', host: 'console.localhost' }, bare).kind).toBe('unknownHost');
    expect(decide({ method: 'POST', target: '/api/console/login', host: 'console.localhost' }, bare)).toMatchObject(NOT_FOUND);
  });

  it.each([
    ['/', '/_console'],
    ['/?from=2025-01-01&to=2025-01-07', '/_console?from=2025-01-01&to=2025-01-07'],
    ['/login', '/_console/login'],
    ['/leads', '/_console/leads'],
    ['/leads?q=a%40b.com', '/_console/leads?q=a%40b.com'],
    ['/leads/ld_abc123', '/_console/leads/ld_abc123'],
    ['/buyers', '/_console/buyers'],
    ['/brands', '/_console/brands'],
    ['/exports', '/_console/exports'],
    ['/users', '/_console/users'],
    ['/audit', '/_console/audit'],
    ['/quality', '/_console/quality'],
    ['/account', '/_console/account'],
    ['/refused', '/_console/refused'],
    ['/leads/ld_abc123?trace=open', '/_console/leads/ld_abc123?trace=open'],
    ['/api/console/login', '/api/console/login'],
    ['/api/console/totp', '/api/console/totp'],
    ['/api/console/export', '/api/console/export'],
    ['/_next/static/chunks/a.css', '/_next/static/chunks/a.css'],
    ['/favicon.ico', '/favicon.ico'],
    // what the console does not have: its own 404, never a brand page or another API
    ['/payday-loans', undefined],
    ['/leads/', undefined],
    ['/leads/a/b', undefined],
    ['/leads/%3Cscript%3E', undefined],
    ['/_console', undefined],
    ['/_console/leads', undefined],
    ['/_next/data/build-1/_console/leads.json', undefined],
    ['/api/leads', undefined],
    ['/api/events', undefined],
    ['/api/seo/ipaydayloans/robots.txt', undefined],
    ['/api/console/', undefined],
    ['/api/console/LOGIN', undefined],
    ['/robots.txt', undefined],
    ['//leads', undefined],
  ] as const)('console host: %s → %s', (target, url) => {
    const d = on('console.localhost:3104', target);
    expect(d).toEqual({ kind: 'console', host: 'console.localhost', url });
    expect(answerOf(d)?.status).toBe(url === undefined ? 404 : undefined);
  });

  it.each([
    '/_console',
    '/_console/leads',
    '/_CONSOLE/leads',
    '/%5Fconsole/leads',
    '//_console//leads',
    '/_console/leads/ld_abc123',
    '/api/console/login',
    '/api/console/export',
    '/api/Console/login',
    '//api/console/login',
    '/api//console/login',
    '/api/console',
    '/_next/data/build-1/_console/leads.json',
    '/_next/data/build-1/_console.json',
  ])('a brand host never reaches the console: %s → 404', (target) => {
    for (const method of ['GET', 'POST'])
      for (const host of [IPAYDAY, 'weloans.ca', 'evil.com'])
        expect(decide({ method, target, host }, door), `${method} ${host}${target}`).toMatchObject(NOT_FOUND);
  });

  it.each([
    // where the demo lender exists: its offer page on a brand's own hosts, local or production, the query kept
    [IPAYDAY, '/demo-lender/offer?o=o1.abc', true, { kind: 'demoLender', brand: 'ipaydayloans', url: '/api/demo-lender/offer?o=o1.abc' }],
    ['ipaydayloans.com', '/demo-lender/offer', true, { kind: 'demoLender', brand: 'ipaydayloans', url: '/api/demo-lender/offer' }],
    ['weloans.ca', '/demo-lender/offer?o=%3Cscript%3E', true, { kind: 'demoLender', brand: 'weloans', url: '/api/demo-lender/offer?o=%3Cscript%3E' }],
    // not on a blog host, not on a host of no brand, and no other path of the lender
    ['blog.ipaydayloans.com', '/demo-lender/offer', true, { kind: 'notFound', brand: 'ipaydayloans' }],
    ['evil.com', '/demo-lender/offer', true, { kind: 'unknownHost' }],
    [IPAYDAY, '/demo-lender/other', true, BRAND_404],
    [IPAYDAY, '/Demo-Lender/offer', true, BRAND_404],
    // a deployment, or buyer documents in use: no demo lender, the path is the brand's 404 like any unknown page
    ['ipaydayloans.com', '/demo-lender/offer', false, BRAND_404],
    [IPAYDAY, '/demo-lender/offer?o=o1.abc', false, BRAND_404],
  ] as const)('the demo lender offer page: %s %s (demo lender %s) → %j', (host, target, demoLender, expected) => {
    expect(decide({ method: 'GET', target, host }, { ...door, demoLender })).toMatchObject(expected);
  });

  it('x-forwarded-host is believed only when the deployment says so', () => {
    const facts = { method: 'GET', target: '/', host: '127.0.0.1:3000', forwardedHost: 'weloans.ca' };
    expect(decide(facts, door).kind).toBe('unknownHost');
    expect(decide(facts, { ...door, trustForwardedHost: true })).toMatchObject({ kind: 'page', brand: 'weloans' });
  });

  it('a believed x-forwarded-host with several values or an empty one is refused (400), not resolved by its first', () => {
    const trusted = { ...door, trustForwardedHost: true };
    const on = (forwardedHost: string) => decide({ method: 'GET', target: '/', host: 'ipaydayloans.com', forwardedHost }, trusted);
    const several = { kind: 'refuse', status: 400, reason: 'The request has more than one X-Forwarded-Host value' };
    expect(on('weloans.ca, evil.com')).toEqual(several);
    expect(on('weloans.ca,weloans.ca')).toEqual(several);
    expect(on('')).toEqual({ kind: 'refuse', status: 400, reason: 'The request has an empty X-Forwarded-Host header' });
    // not believed, it decides nothing: the Host header's page
    expect(decide({ method: 'GET', target: '/', host: 'ipaydayloans.com', forwardedHost: 'weloans.ca, evil.com' }, door)).toMatchObject({
      kind: 'page',
      brand: 'ipaydayloans',
    });
  });
});

describe('what a page is sent with', () => {
  it('every brand page has its brand policy; pages with "Use my location" allow geolocation; 404 pages the brand policy', () => {
    for (const loaded of catalog.brands.values()) {
      const host = `${loaded.brand.id}.localhost`;
      const home = on(host, '/');
      expect(home).toMatchObject({ kind: 'page', policy: pagePolicy(loaded.brand, loaded.layout(loaded.routes[0]!.layout), {}, BLOCK_SPECS) });
      expect(on(host, '/no-such-page')).toMatchObject({ kind: 'notFound', policy: pagePolicy(loaded.brand, undefined, {}, BLOCK_SPECS) });
    }
    expect(permissionsPolicy(on(IPAYDAY, '/search'))).toMatch(/^geolocation=\(self\)/);
    expect(permissionsPolicy(on('usbadcreditloans.localhost', '/title-loans/location/search'))).toMatch(/^geolocation=\(self\)/);
    expect(permissionsPolicy(on(IPAYDAY, '/privacy'))).toMatch(/^geolocation=\(\)/);
    expect(permissionsPolicy(on(IPAYDAY, '/robots.txt'))).toMatch(/^geolocation=\(\)/);
    expect(on(IPAYDAY, '/payday-loans')).toMatchObject({ policy: { tagManager: true } });
  });

  it('a remembered page decision is the same as a fresh one, and a refused method is still refused', () => {
    const remembering = rememberingPages();
    const facts = { method: 'GET', target: '/installment-loans', host: IPAYDAY };
    expect(remembering(facts, door)).toEqual(decide(facts, door));
    expect(remembering(facts, door)).toBe(remembering(facts, door));
    expect(remembering({ ...facts, method: 'TRACE' }, door)).toMatchObject({ kind: 'refuse', status: 405 });
    expect(remembering({ ...facts, host: 'evil.com' }, door).kind).toBe('unknownHost');
    // a second Host header is refused even where the first one's page is remembered
    expect(remembering({ ...facts, hostHeaders: 2 }, door)).toEqual({ kind: 'refuse', status: 400, reason: 'The request has more than one Host header' });
  });
});
