/**
 * Host routing without the proxy. server.mjs finds the brand of a request's Host header in the
 * build's host table (hostTable below, written to .next by scripts/write-host-table.ts after
 * `next build`), sets BRAND_HEADER and hands Next the brand's internal path itself
 * (engine/http/requestGate.mjs brandRequestUrl: {path} → /_brand/{id}{path}, plus the brand's
 * robots.txt and sitemaps). Next's `headers()` rules (brandHeaders below) then give each page,
 * by that internal path, what it uses from third parties (for its Content-Security-Policy) and
 * geolocation where "Use my location" is on the page. A cached page costs about what a static
 * file costs: no proxy.ts, no rewrite.
 *
 * There are no next.config.ts rewrites. Next sends every rewrite to the browser in
 * `_buildManifest.js`, which every page loads, and with any rewrite the client router ships its
 * rewrite resolver (measured: 3.0 KiB gzip of every page's JavaScript). The browser resolves a
 * page path to the brand page itself (blocks/chrome/clientNavigation.ts), naming the placeholder
 * brand CLIENT_BRAND (it cannot know the brand id of a host proxy.ts routes); server.mjs turns
 * its data requests (/_next/data/{build}/_brand/_/{path}.json) into requests for the host's own
 * brand.
 *
 * Hosts are matched against the raw Host header (Next's "host" condition would drop any port,
 * even 99999, which is not a plausible host — issue 8.5). The pattern is the brand's exact host
 * list, escaped and anchored, each letter as [xX], an optional run of trailing dots and an
 * optional port 1–65535: the same hosts normaliseHost + the host map accept, nothing else
 * ("ipaydayloans.com.evil.net" is not it).
 *
 * Blog hosts and brands kept out of the catalog (broken) are not in the table: they go through
 * proxy.ts, as every host does in development (server.mjs decides; engine/http/requestGate.mjs).
 */
import type { Catalog } from './catalog';
import { hostsOfBrand } from './hosts';
import { PAGE_POLICY_HEADER } from './csp.mjs';
import { pageUsesGeolocation } from './geocode/permissions';
import { pagePolicy, usesGeocoder } from './pagePolicy';

export interface HostCondition {
  type: 'header';
  /** "host", or BRAND_HEADER */
  key: string;
  value: string;
}

/**
 * The request header server.mjs sets (after removing any a client sent) to the brand the host
 * table gives for the request's Host header. The per-page header rules go by it.
 */
export const BRAND_HEADER = 'x-loansites-brand';

/** One row of the host table server.mjs routes by: a Host header pattern (as Next's matchHas builds it: ^value$) and its brand. */
export interface HostTableRow {
  id: string;
  host: string;
}

export interface HeaderRule {
  source: string;
  has: HostCondition[];
  headers: { key: string; value: string }[];
}

/** A port 1–65535 (leading zeros allowed, at most 5 digits, as normaliseHost takes it). */
const PORT = '(?::(?=\\d{1,5}$)0*(?:6553[0-5]|655[0-2]\\d|65[0-4]\\d{2}|6[0-4]\\d{3}|[1-5]\\d{4}|[1-9]\\d{0,3}))?';

/** One literal host as a case-insensitive regex: letters as [xX], everything else escaped. */
export function caselessLiteral(host: string): string {
  let out = '';
  for (const ch of host) {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    if (lower !== upper) out += `[${lower}${upper}]`;
    else out += /[.*+?^${}()|[\]\\/-]/.test(ch) ? `\\${ch}` : ch;
  }
  return out;
}

/**
 * The Host header value pattern of a list of hosts: anchored (Next wraps it in ^…$ again, which
 * changes nothing), so a longer or a prefixed host never matches.
 */
export function hostHeaderPattern(hosts: readonly string[]): string {
  return `^(?:${[...new Set(hosts.map((h) => h.toLowerCase()))].map(caselessLiteral).join('|')})\\.*${PORT}$`;
}

/** The regex Next builds from a `has` value (prepare-destination.js matchHas). */
export const hasValueRegex = (value: string): RegExp => new RegExp(`^${value}$`);

/**
 * A brand page as Next is given it (engine/http/requestGate.mjs brandRequestUrl): the internal
 * path, /_brand/{id} for the home page. The SEO files (/api/seo/…) are not pages.
 */
export const BRAND_PAGE_SOURCE = '/_brand/:brand/:path*';

/** The brands server.mjs names (ids are [a-z0-9-], nothing to escape). */
const brandCondition = (ids: readonly string[]): HostCondition[] => [{ type: 'header', key: BRAND_HEADER, value: `(?:${ids.join('|')})` }];

/** The host table: each brand of the build with its Host header pattern. */
export function hostTable(catalog: Catalog): HostTableRow[] {
  return [...catalog.brands.values()].map((loaded) => ({ id: loaded.brand.id, host: hostHeaderPattern(hostsOfBrand(loaded.brand)) }));
}

export const GEOLOCATION_DENIED = 'geolocation=(), camera=(), microphone=(), payment=(), usb=(), interest-cohort=()';
export const GEOLOCATION_ALLOWED = 'geolocation=(self), camera=(), microphone=(), payment=(), usb=(), interest-cohort=()';

/**
 * A route's regex (engine/routes.ts compileRoute) as a headers() source for the brand's internal
 * path: its body as one custom parameter, named groups made non-capturing (path-to-regexp allows
 * no capturing groups).
 */
export function routeSource(regex: RegExp): string {
  const body = regex.source.replace(/^\^\\\//, '').replace(/\$$/, '');
  if (body === '') return '/_brand/:brand';
  return `/_brand/:brand/:route(${body.replace(/\(\?<[a-zA-Z]+>/g, '(?:')})`;
}

/**
 * headers() rules. Per brand: every page path gets the brand's policy (tag manager, pixel);
 * routes whose pages use more (a geocoder block, a third-party form, "Use my location") get a
 * rule of their own. When several rules match, Next applies them in order and the last one wins,
 * so route rules come last-route-first: the first route a path can match wins, as in matchRoute.
 * Route rules go by the path's shape only (not whether the state or city is real), so at worst a
 * 404 page of that shape gets the same policy as the page would have.
 *
 * The geocoder's origin depends on the environment the server runs with (GEOCODER=mapbox), so a
 * page that calls it says `geocoder: true` and server.mjs adds the origin.
 */
export function brandHeaders(catalog: Catalog): HeaderRule[] {
  // Every rule is tested on every request: brands with the same policy share one rule. They go by
  // the brand server.mjs names (a short pattern Next compiles per request, not a host list);
  // requests proxy.ts routes get their headers from it.
  const brandsByPolicy = new Map<string, string[]>();
  for (const loaded of catalog.brands.values()) {
    const base = JSON.stringify(pagePolicy(loaded.brand, undefined, {}));
    brandsByPolicy.set(base, [...(brandsByPolicy.get(base) ?? []), loaded.brand.id]);
  }
  const rules: HeaderRule[] = [...brandsByPolicy].map(([policy, ids]) => ({
    source: BRAND_PAGE_SOURCE,
    has: brandCondition(ids),
    headers: [{ key: PAGE_POLICY_HEADER, value: policy }],
  }));
  for (const loaded of catalog.brands.values()) {
    const has = brandCondition([loaded.brand.id]);
    const base = JSON.stringify(pagePolicy(loaded.brand, undefined, {}));
    for (const route of [...loaded.routes].reverse()) {
      const layout = loaded.layout(route.layout);
      if (!layout) continue;
      const policy = JSON.stringify({ ...pagePolicy(loaded.brand, layout, {}), ...(usesGeocoder(layout) ? { geocoder: true } : {}) });
      const geolocation = pageUsesGeolocation(layout);
      if (policy === base && !geolocation) continue;
      rules.push({
        source: routeSource(route.regex),
        has,
        headers: [
          { key: PAGE_POLICY_HEADER, value: policy },
          { key: 'Permissions-Policy', value: geolocation ? GEOLOCATION_ALLOWED : GEOLOCATION_DENIED },
        ],
      });
    }
  }
  return rules;
}
