/**
 * Host routing (engine/hostRoutes.ts): the build's host table server.mjs routes by, tested the way
 * it applies it (^value$ against the raw Host header), for every brand: its hosts in any case,
 * with a port, with trailing dots — and nothing else (issue 8: exact lookup, no substring
 * matching); and the rewrites next.config.ts gives Next (and Next gives every browser), which
 * name no host.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/catalog';
import { hostsOfBrand, normaliseHost } from '../../engine/hosts';
import {
  BRAND_HEADER,
  brandHeaders,
  brandRewrites,
  BRAND_PAGE_SOURCE,
  hasValueRegex,
  hostHeaderPattern,
  hostTable,
  routeSource,
} from '../../engine/hostRoutes';
import { PAGE_POLICY_HEADER } from '../../engine/csp.mjs';
import { BRAND_HEADER as GATE_BRAND_HEADER, HOST_TABLE_FILE, hostRouter, readHostRules } from '../../engine/http/requestGate.mjs';

const { brands, layouts } = readSources({ extraDir: '' });
const catalog = buildCatalog(brands, layouts);
const rewrites = brandRewrites();
const table = hostTable(catalog);

/** The brand a Host header is routed to: the first row whose host pattern matches. */
const routed = (host: string) => table.find((r) => hasValueRegex(r.host).test(host))?.id;

describe('host patterns', () => {
  const ipayday = hostHeaderPattern(['ipaydayloans.com', 'www.ipaydayloans.com', 'dev.ipaydayloans.com', 'test123.ipaydayloans.com', 'ipaydayloans.localhost']);
  const re = hasValueRegex(ipayday);
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
    // not plausible ports (issue 8.5): unknown, never a page
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
    ['blog.ipaydayloans.com', false],
    ['dev.www.ipaydayloans.com', false],
    ['ipaydayloans.localhost.evil.net', false],
    ['ipaydayloans.com/evil', false],
    ['ipaydayloans.com ', false],
    ['', false],
  ])('%j → %s', (host, expected) => {
    expect(re.test(host)).toBe(expected);
  });

  it('escapes every regex character and anchors the pattern', () => {
    expect(ipayday.startsWith('^(?:')).toBe(true);
    expect(ipayday.endsWith('$')).toBe(true);
    expect(ipayday).not.toMatch(/[^\\]\.(?![*])/); // every dot is escaped (a literal dot), apart from the trailing-dots run
    expect(hasValueRegex(hostHeaderPattern(['a-b.example'])).test('a-b.example')).toBe(true);
    expect(hasValueRegex(hostHeaderPattern(['a-b.example'])).test('aab.example')).toBe(false);
  });
});

describe('the rules generated from the brand files', () => {
  it('route pages on the brand server.mjs names; the last rule, for the browser, names the placeholder brand', () => {
    expect(rewrites[0]).toEqual({
      source: BRAND_PAGE_SOURCE,
      has: [{ type: 'header', key: BRAND_HEADER, value: '(?<brand>[a-z0-9][a-z0-9-]*)' }],
      destination: '/_brand/:brand/:path',
    });
    expect(rewrites.slice(0, -1).every((r) => r.has?.[0]?.key === BRAND_HEADER)).toBe(true);
    expect(rewrites.at(-1)).toEqual({ source: BRAND_PAGE_SOURCE, destination: '/_brand/_/:path' });
    expect(BRAND_HEADER).toBe(GATE_BRAND_HEADER);
  });

  it('name no host and no brand: every page gets them in _buildManifest.js', () => {
    const sent = JSON.stringify(rewrites);
    for (const loaded of catalog.brands.values()) {
      expect(sent).not.toContain(loaded.brand.id);
      for (const host of hostsOfBrand(loaded.brand)) expect(sent).not.toContain(host.replace(/^(?:www|dev|test123)\./, '').split('.')[0]);
    }
    expect(sent.length).toBeLessThan(1500);
  });

  it('route every host of every brand to that brand, in any case, with a port and a trailing dot', () => {
    expect(table.map((r) => r.id).sort()).toEqual([...catalog.brands.keys()].sort());
    for (const loaded of catalog.brands.values()) {
      for (const host of hostsOfBrand(loaded.brand)) {
        for (const variant of [host, host.toUpperCase(), `${host}:3000`, `${host}.`, `${host}.:443`]) {
          expect(routed(variant), variant).toBe(loaded.brand.id);
          expect(normaliseHost(variant)).toBe(host);
        }
      }
    }
  });

  it('route no other host: look-alikes, blog hosts, the dev./test123. of www., unknown hosts', () => {
    for (const loaded of catalog.brands.values()) {
      const [main] = loaded.brand.hosts;
      for (const host of [
        `${main}.evil.net`,
        `evil${main}`,
        `x.${main}`,
        `dev.www.${main}`,
        `${loaded.brand.id}.localhost.evil.net`,
        `www.${loaded.brand.id}.localhost`,
      ]) {
        expect(routed(host), host).toBeUndefined();
      }
      if (loaded.brand.blogHost) expect(routed(loaded.brand.blogHost)).toBeUndefined();
    }
    for (const host of ['evil.com', 'localhost', '127.0.0.1:3000', '[::1]:3000', 'nobrand.localhost']) expect(routed(host), host).toBeUndefined();
  });

  it("send SEO files to the SEO route of the host's brand, canonical sitemap numbers only", () => {
    const sitemaps = rewrites.find((r) => r.destination === '/api/seo/:brand/sitemap-:n.xml')!;
    expect(sitemaps.source).toBe('/sitemaps/:n(0|[1-9]\\d{0,3}).xml');
    expect(rewrites.filter((r) => r.source === '/robots.txt').map((r) => r.destination)).toEqual(['/api/seo/:brand/robots.txt']);
  });

  it("leave Next's files, the internal prefix, the API and public files alone", () => {
    // path-to-regexp turns /:path(re) into ^\/(re)…; the parameter's own regex is what decides.
    const inner = new RegExp(`^/${BRAND_PAGE_SOURCE.slice('/:path('.length, -1)}$`);
    for (const path of ['/', '/payday-loans', '/location/tx/houston', '/apply', '/robots', '/apiary', '/statistics', '/logos'])
      expect(inner.test(path), path).toBe(true);
    for (const path of [
      '/_next/static/x.js',
      '/_brand/ipaydayloans/payday-loans',
      '/_brand',
      '/_404',
      '/api/leads',
      '/api',
      '/static/ping.txt',
      '/logos/a.svg',
      '/favicon.ico',
      '/robots.txt',
      '/sitemap.xml',
      '/sitemaps/0.xml',
    ])
      expect(inner.test(path), path).toBe(false);
  });

  it('server.mjs reads the same table back from the build (and routes nothing from a missing or broken one)', () => {
    const route = hostRouter(readHostTableFrom(JSON.stringify({ brands: table })));
    expect(route('IPAYDAYLOANS.COM:3000')).toBe('ipaydayloans');
    expect(route('ipaydayloans.com.evil.net')).toBeUndefined();
    expect(route('usbadcreditloans.localhost')).toBe('usbadcreditloans');
    expect(readHostTableFrom(undefined)).toEqual([]);
    expect(readHostTableFrom('{"brands": [')).toEqual([]);
    expect(
      readHostTableFrom(
        JSON.stringify({
          brands: [
            { id: '../x', host: '.*' },
            { id: 'a', host: 1 },
          ],
        }),
      ),
    ).toEqual([]);
  });
});

describe('per-page headers', () => {
  const rules = brandHeaders(catalog);
  it('every brand page path declares its brand\'s policy; pages with "Use my location" allow geolocation', () => {
    const base = rules.filter((r) => r.source === BRAND_PAGE_SOURCE);
    expect(base.length).toBeLessThan(catalog.brands.size);
    for (const r of base) expect(r.headers.map((h) => h.key)).toEqual([PAGE_POLICY_HEADER]);
    for (const r of rules) expect(r.has.map((h) => h.key)).toEqual([BRAND_HEADER]);
    for (const id of catalog.brands.keys())
      expect(
        base.filter((r) => hasValueRegex(r.has[0]!.value).test(id)),
        id,
      ).toHaveLength(1);
    expect(base.some((r) => hasValueRegex(r.has[0]!.value).test('ipaydayloansx'))).toBe(false);
    const geo = rules.filter((r) => r.headers.some((h) => h.key === 'Permissions-Policy' && h.value.startsWith('geolocation=(self)')));
    expect(geo.length).toBeGreaterThan(0);
    const ipaydaySearch = geo.find(
      (r) =>
        hasValueRegex(r.has[0]!.value).test('ipaydayloans') && new RegExp(`^${r.source.replace(/^\/:route\(/, '/(?:').replace(/\)$/, ')')}$`).test('/search'),
    );
    expect(ipaydaySearch, 'ipaydayloans /search').toBeDefined();
  });

  it('a route pattern becomes a path-to-regexp source without capturing groups', () => {
    expect(routeSource(/^\/(?<loanType>[a-z]+(?:-[a-z]+)*)\/location\/search$/)).toBe('/:route((?:[a-z]+(?:-[a-z]+)*)\\/location\\/search)');
    expect(routeSource(/^\/$/)).toBe('/');
  });
});

function readHostTableFrom(text: string | undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'host-table-'));
  if (text !== undefined) writeFileSync(join(dir, HOST_TABLE_FILE), text);
  return readHostRules(dir);
}
