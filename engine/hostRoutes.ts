/**
 * Host routing without the proxy. server.mjs finds the brand of a request's Host header in the
 * build's host table (hostTable below, written to .next by scripts/write-host-table.ts after
 * `next build`) and sets BRAND_HEADER; next.config.ts's `beforeFiles` rewrites route on that
 * header alone ({path} → /_brand/{id}{path}, plus the brand's robots.txt and sitemaps), and
 * `headers()` rules give each page what it uses from third parties (for its
 * Content-Security-Policy) and geolocation where "Use my location" is on the page. Next
 * evaluates them as plain regexes, much cheaper than invoking proxy.ts, so a cached page costs
 * about what a static file costs.
 *
 * The rewrites name no host. Next sends every rewrite to the browser in `_buildManifest.js`,
 * which every page loads: per-brand host rules there would tell each site's visitors every
 * sister site's domains and cost every page ~1.7 KiB of JavaScript (gzip). The browser needs one
 * rule only — any page path is the brand page — and it cannot know the brand id, so its rule
 * names the placeholder CLIENT_BRAND; server.mjs turns the client router's data requests for it
 * (/_next/data/{build}/_brand/_/{path}.json) into requests for the host's own brand.
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
// The brand segment of the browser's rewrite: the browser cannot know the brand id (see above).
import { CLIENT_BRAND } from './http/requestGate.mjs';
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
 * table gives for the request's Host header. Every brand rewrite routes on it.
 */
export const BRAND_HEADER = 'x-loansites-brand';

export interface RewriteRule {
  source: string;
  destination: string;
  has?: HostCondition[];
}

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
 * Paths a brand rule rewrites: everything but Next's own (/_next…), the internal prefix and any
 * other path starting with "_" (no brand route does), the API, the shared public files and the
 * SEO files (their own rules, below). The path is one parameter; "/" gives an empty one.
 */
export const BRAND_PAGE_SOURCE = '/:path((?!_|api(?:/|$)|static/|logos/|favicon\\.ico$|robots\\.txt$|sitemap\\.xml$|sitemaps/).*)';

/** Sitemap paths that are not a page: a non-canonical number is the brand's 404 page. */
const SITEMAP_PAGES_SOURCE = '/:path(sitemaps/.*)';

/** Canonical sitemap numbers only: 0, 1 … 9999 (not 00 or 0001). */
const SITEMAP_SOURCE = '/sitemaps/:n(0|[1-9]\\d{0,3}).xml';

/** The brands server.mjs names (ids are [a-z0-9-], nothing to escape). */
const brandCondition = (ids: readonly string[]): HostCondition[] => [{ type: 'header', key: BRAND_HEADER, value: `(?:${ids.join('|')})` }];

/** The host table: each brand of the build with its Host header pattern. */
export function hostTable(catalog: Catalog): HostTableRow[] {
  return [...catalog.brands.values()].map((loaded) => ({ id: loaded.brand.id, host: hostHeaderPattern(hostsOfBrand(loaded.brand)) }));
}

/** The named brand of BRAND_HEADER, as a destination parameter. */
const BRAND_NAMED: HostCondition[] = [{ type: 'header', key: BRAND_HEADER, value: '(?<brand>[a-z0-9][a-z0-9-]*)' }];

/**
 * beforeFiles rewrites — the same for every catalog: pages, then the SEO files and any other
 * sitemap path (to the brand's 404 page), each for the brand server.mjs named; last the
 * browser's rule. Server-side that last rule is never reached by a page request: server.mjs
 * names a brand or sends the request through proxy.ts, which answers or rewrites to the internal
 * prefix, which no source here matches (`next start` without server.mjs routes no host: every
 * page is a 404).
 */
export function brandRewrites(): RewriteRule[] {
  return [
    { source: BRAND_PAGE_SOURCE, has: BRAND_NAMED, destination: '/_brand/:brand/:path' },
    { source: '/robots.txt', has: BRAND_NAMED, destination: '/api/seo/:brand/robots.txt' },
    { source: '/sitemap.xml', has: BRAND_NAMED, destination: '/api/seo/:brand/sitemap.xml' },
    { source: SITEMAP_SOURCE, has: BRAND_NAMED, destination: '/api/seo/:brand/sitemap-:n.xml' },
    { source: SITEMAP_PAGES_SOURCE, has: BRAND_NAMED, destination: '/_brand/:brand/:path' },
    { source: BRAND_PAGE_SOURCE, destination: `/_brand/${CLIENT_BRAND}/:path` },
  ];
}

export const GEOLOCATION_DENIED = 'geolocation=(), camera=(), microphone=(), payment=(), usb=(), interest-cohort=()';
export const GEOLOCATION_ALLOWED = 'geolocation=(self), camera=(), microphone=(), payment=(), usb=(), interest-cohort=()';

/**
 * A route's regex (engine/routes.ts compileRoute) as a headers() source: its body as one custom
 * parameter, named groups made non-capturing (path-to-regexp allows no capturing groups).
 */
export function routeSource(regex: RegExp): string {
  const body = regex.source.replace(/^\^\\\//, '').replace(/\$$/, '');
  if (body === '') return '/';
  return `/:route(${body.replace(/\(\?<[a-zA-Z]+>/g, '(?:')})`;
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
