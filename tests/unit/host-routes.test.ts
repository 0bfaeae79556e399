/**
 * Host routing (engine/hostRoutes.ts): the build's host table server.mjs routes by, tested the way
 * it applies it (^value$ against the raw Host header), for every brand: its hosts in any case,
 * with a port, with trailing dots — and nothing else (issue 8: exact lookup, no substring
 * matching); and the per-page header rules next.config.ts gives Next, matched the way Next
 * matches them, against the internal path server.mjs hands it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/catalog';
import { hostsOfBrand, normaliseHost } from '../../engine/hosts';
import { getPathMatch } from 'next/dist/shared/lib/router/utils/path-match';
import { BRAND_HEADER, brandHeaders, BRAND_PAGE_SOURCE, hasValueRegex, hostHeaderPattern, hostTable, routeSource } from '../../engine/hostRoutes';
import { PAGE_POLICY_HEADER } from '../../engine/csp.mjs';
import { BRAND_HEADER as GATE_BRAND_HEADER, brandRequestUrl, HOST_TABLE_FILE, hostRouter, readHostRules } from '../../engine/http/requestGate.mjs';

const { brands, layouts } = readSources({ extraDir: '' });
const catalog = buildCatalog(brands, layouts);
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
  it('server.mjs and the header rules name the brand with the same header', () => {
    expect(BRAND_HEADER).toBe(GATE_BRAND_HEADER);
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
  /** As Next matches a headers() source (router-utils/filesystem.js): strict, case-insensitive. */
  const matches = (source: string, path: string) => getPathMatch(source, { strict: true, removeUnnamedParams: true, sensitive: false })(path) !== false;
  /** The rules Next applies to a brand page of a routed host, in order (the last one wins). */
  const applied = (id: string, pagePath: string) =>
    rules.filter((r) => hasValueRegex(r.has[0]!.value).test(id) && matches(r.source, brandRequestUrl(pagePath, id)!.split('?')[0]!));
  const declared = (id: string, pagePath: string, key: string) =>
    applied(id, pagePath)
      .flatMap((r) => r.headers)
      .filter((h) => h.key === key)
      .at(-1)?.value;

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
    for (const id of catalog.brands.keys())
      for (const path of ['/', '/payday-loans', '/location/tx/houston', '/privacy'])
        expect(declared(id, path, PAGE_POLICY_HEADER), `${id} ${path}`).toBeDefined();
    expect(declared('ipaydayloans', '/search', 'Permissions-Policy')).toMatch(/^geolocation=\(self\)/);
    expect(declared('ipaydayloans', '/privacy', 'Permissions-Policy')).toBeUndefined();
    // SEO files are not pages
    expect(applied('ipaydayloans', '/robots.txt')).toEqual([]);
    expect(applied('ipaydayloans', '/sitemaps/0.xml')).toEqual([]);
  });

  it('a route pattern becomes a path-to-regexp source for the internal path, without capturing groups', () => {
    expect(routeSource(/^\/(?<loanType>[a-z]+(?:-[a-z]+)*)\/location\/search$/)).toBe('/_brand/:brand/:route((?:[a-z]+(?:-[a-z]+)*)\\/location\\/search)');
    expect(routeSource(/^\/$/)).toBe('/_brand/:brand');
    expect(matches(routeSource(/^\/$/), '/_brand/ipaydayloans')).toBe(true);
    expect(matches(routeSource(/^\/$/), '/_brand/ipaydayloans/x')).toBe(false);
    expect(matches(routeSource(/^\/(?<loanType>[a-z]+)\/location\/search$/), '/_brand/a/payday/location/search')).toBe(true);
    expect(matches(routeSource(/^\/(?<loanType>[a-z]+)\/location\/search$/), '/payday/location/search')).toBe(false);
    expect(matches(BRAND_PAGE_SOURCE, '/_brand/ipaydayloans')).toBe(true);
    expect(matches(BRAND_PAGE_SOURCE, '/_brand/ipaydayloans/location/tx/houston')).toBe(true);
    expect(matches(BRAND_PAGE_SOURCE, '/api/seo/ipaydayloans/robots.txt')).toBe(false);
  });
});

function readHostTableFrom(text: string | undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'host-table-'));
  if (text !== undefined) writeFileSync(join(dir, HOST_TABLE_FILE), text);
  return readHostRules(dir);
}
