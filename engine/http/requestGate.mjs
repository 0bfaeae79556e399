// @ts-check
/**
 * What server.mjs decides about a request before Next sees it (plain JavaScript: server.mjs
 * imports it; table tests in tests/unit/request-gate.test.ts):
 * - which brand its Host header routes to (the build's host table, .next/loansites-host-table.json,
 *   written from the catalog the build used, so server and build agree), and the internal path
 *   Next is given for it (brandRequestUrl; the client router's data requests: clientDataRequest);
 * - whether proxy.ts must see it (then under PROXY_PREFIX, a prefix only server.mjs may use: a
 *   client's request for it is refused like the internal prefix): in development every page (brand
 *   files, new hosts included, are re-read on save), and in production only for what the host
 *   table cannot do — a host it does not route (unknown hosts, blog hosts, brands left out of the
 *   build), a path with capitals (/location/TX → 308 /location/tx) and a search (?state=…). A
 *   cached page never does;
 * - the internal prefix: /_brand/… asked for directly is a 404 for everyone but Next's own
 *   revalidation (x-prerender-revalidate equal to the build's preview-mode id); the client
 *   router's data requests for it (/_next/data/{build}/_brand/_/…, with the placeholder brand
 *   the browser names: blocks/chrome/clientNavigation.ts) only on a routed host, and they are
 *   given that host's brand.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { timingSafeEqual } from 'node:crypto';

/** The brand a routed host's pages are rewritten to (engine/hostRoutes.ts BRAND_HEADER); server.mjs sets it, never a client. */
export const BRAND_HEADER = 'x-loansites-brand';

/** The build's host table in .next (scripts/write-host-table.ts writes it after `next build`). */
export const HOST_TABLE_FILE = 'loansites-host-table.json';

/**
 * @typedef {{ id: string, host: RegExp }} HostRule
 * @param {string} distDir the build's .next directory
 * @returns {HostRule[]} host pattern → brand id; none without a table (every page then goes through proxy.ts)
 */
export function readHostRules(distDir) {
  try {
    const table = JSON.parse(readFileSync(join(distDir, HOST_TABLE_FILE), 'utf8'));
    /** @type {HostRule[]} */
    const rules = [];
    for (const row of Array.isArray(table?.brands) ? table.brands : []) {
      // Same construction as Next's matchHas.
      if (typeof row?.id === 'string' && /^[a-z0-9][a-z0-9-]*$/.test(row.id) && typeof row.host === 'string')
        rules.push({ id: row.id, host: new RegExp(`^${row.host}$`) });
    }
    return rules;
  } catch {
    return [];
  }
}

/** Host header → the brand it is routed to, memoised per distinct header value (bounded). */
export function hostRouter(/** @type {HostRule[]} */ rules, max = 2048) {
  /** @type {Map<string, string | undefined>} */
  const seen = new Map();
  return (/** @type {string | undefined} */ host) => {
    if (!host) return undefined;
    if (seen.has(host)) return seen.get(host);
    const id = rules.find((r) => r.host.test(host))?.id;
    if (seen.size >= max) seen.clear();
    seen.set(host, id);
    return id;
  };
}

/** The path of a request target, percent-decoded where it can be, runs of slashes collapsed. */
export function plainPath(/** @type {string} */ url) {
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  if (path.includes('%')) {
    try {
      path = decodeURIComponent(path);
    } catch {
      /* left as sent */
    }
  }
  return path.replace(/\/{2,}/g, '/');
}

const DATA_INTERNAL = /^\/_next\/data\/[^/]+\/_brand(?:\/([^/]*))?/i;

/**
 * The brand segment the browser names in its data requests (blocks/chrome/clientNavigation.ts):
 * it cannot know the brand id of a host proxy.ts routes, so it names none.
 */
export const CLIENT_BRAND = '_';

/** The hand-over prefix (PROXY_PREFIX) asked for by a client: a page path or its data request. */
const HANDED_OVER = /^(?:\/_next\/data\/[^/]+)?\/__loansites-proxy(?:[/.?]|$)/i;

/**
 * Whether a request for the internal prefix must be refused (404). The client router's data
 * requests name the placeholder brand (clientDataRequest below gives them the host's brand, or
 * hands them to proxy.ts), or, on a routed host, that host's own brand. The hand-over prefix
 * (PROXY_PREFIX) is server.mjs's alone: refused for everyone, Next's revalidation included (it
 * never uses it).
 * @param {{ path: string, routedBrand: string | undefined, revalidateHeader: string | undefined, previewModeId: string | null }} r
 */
export function internalPathRefused({ path, routedBrand, revalidateHeader, previewModeId }) {
  if (HANDED_OVER.test(path)) return true;
  const lower = path.toLowerCase();
  const direct = lower === '/_brand' || lower.startsWith('/_brand/');
  const data = DATA_INTERNAL.exec(path);
  if (!direct && !data) return false;
  if (isPreviewModeId(revalidateHeader, previewModeId)) return false;
  if (data) {
    const id = data[1]?.replace(/\.json$/, '');
    return !(id === CLIENT_BRAND || (routedBrand && id === routedBrand));
  }
  return true;
}

/**
 * Paths a routed host's brand page answers: everything but Next's own (/_next…), the internal
 * prefix and any other path starting with "_" (no brand route does), the API, the shared public
 * files and the SEO files (brandRequestUrl maps those to the SEO route).
 */
const BRAND_PAGE = /^\/(?!_|api(?:\/|$)|static\/|logos\/|favicon\.ico$|robots\.txt$|sitemap\.xml$|sitemaps\/)/;
/** Canonical sitemap numbers only: 0, 1 … 9999 (not 00 or 0001); any other sitemap path is the brand's 404 page. */
const SITEMAP = /^\/sitemaps\/(0|[1-9]\d{0,3})\.xml$/;

/**
 * Where Next finds a request on a host the build routes (routedBrand): the brand's internal page
 * /_brand/{brand}{path} (the home page: /_brand/{brand}), its SEO files under /api/seo/{brand}/,
 * the search kept. Undefined: the request goes to Next as it is — Next's own files, the API, the
 * public files, and paths Next redirects first (a trailing slash, runs of slashes or a
 * backslash: redirecting the internal path would name it in the Location header).
 * Routing here, not in next.config.ts rewrites: Next sends any rewrite to every browser, and with
 * it the client's rewrite resolver (~3 KiB of JavaScript, gzip, on every page).
 * @param {string} url the request target @param {string} brand
 * @returns {string | undefined}
 */
export function brandRequestUrl(url, brand) {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const search = q < 0 ? '' : url.slice(q);
  if (path.includes('//') || path.includes('\\') || (path.length > 1 && path.endsWith('/'))) return undefined;
  if (path === '/robots.txt' || path === '/sitemap.xml') return `/api/seo/${brand}${path}${search}`;
  const sitemap = SITEMAP.exec(path);
  if (sitemap) return `/api/seo/${brand}/sitemap-${sitemap[1]}.xml${search}`;
  if (!BRAND_PAGE.test(path) && !path.startsWith('/sitemaps/')) return undefined;
  return `/_brand/${brand}${path === '/' ? '' : path}${search}`;
}

const CLIENT_DATA = /^(\/_next\/data\/[^/?]+\/)_brand\/_(?=[/.])(.*)$/;
/**
 * A data request by page path (/_next/data/{build}/{path}.json; the home page: index.json, a
 * path starting with /index gets a second index/ in front, as Next writes them): the client
 * router's background HEAD after a navigation, which tells Next to revalidate a stale page.
 * Captures: the prefix, the path's file name, the search.
 */
const PAGE_DATA = /^(\/_next\/data\/[^/?]+)\/(?!_)([^?]+)\.json(\?.*)?$/;

/**
 * A client router data request: for the placeholder brand (/_next/data/{build}/_brand/_/{path}.json,
 * from the browser's client navigation) or by page path (PAGE_DATA). On a routed host, the same
 * request for the host's brand; on any other host (one proxy.ts routes: development, blog hosts,
 * brands added after the build), the page path's data request handed to proxy.ts —
 * /_next/data/{build}/__loansites-proxy/{path}.json. Anything else: undefined. (Refusal is
 * internalPathRefused's: call it first.)
 * @param {string} url the request target @param {string | undefined} routedBrand
 * @returns {{ url: string, proxy: boolean } | undefined}
 */
export function clientDataRequest(url, routedBrand) {
  const m = CLIENT_DATA.exec(url);
  if (m) {
    if (routedBrand) return { url: `${m[1]}_brand/${routedBrand}${m[2]}`, proxy: false };
    return { url: `${m[1]}${PROXY_PREFIX.slice(1)}${m[2]}`, proxy: true };
  }
  const p = PAGE_DATA.exec(url);
  if (!p) return undefined;
  const [, prefix, file = '', search = ''] = p;
  const path = file === 'index' ? '' : file.startsWith('index/') ? file.slice('index'.length) : `/${file}`;
  if (path.includes('//') || path.includes('\\')) return undefined;
  if (routedBrand) return { url: `${prefix}/_brand/${routedBrand}${path}.json${search}`, proxy: false };
  return { url: `${prefix}${PROXY_PREFIX}${path}.json${search}`, proxy: true };
}

/** @param {string | undefined} presented @param {string | null} id */
export function isPreviewModeId(presented, id) {
  if (!id || !presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(id);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The build's preview-mode id (.next/prerender-manifest.json), or null without a build. */
export function readPreviewModeId(/** @type {string} */ distDir) {
  try {
    const id = JSON.parse(readFileSync(join(distDir, 'prerender-manifest.json'), 'utf8')).preview?.previewModeId;
    return typeof id === 'string' && id.length >= 16 ? id : null;
  } catch {
    return null;
  }
}

const NEVER_PROXIED = /^\/(?:api\/|_next\/|_brand(?:\/|$)|static\/|logos\/|favicon\.ico$)/;

/**
 * Whether proxy.ts must see the request. Never Next's own requests (/_next/…: assets, HMR, and
 * the client router's data requests, which clientDataRequest maps and anything else
 * answers 404 — the browser then loads the page in full), the internal prefix (only Next's own
 * revalidation gets past server.mjs to it) or the API. A path ending in "/" is left to Next's
 * redirect to the path without it first.
 * @param {{ dev: boolean, routedBrand: string | undefined, url: string }} r
 */
export function needsProxy({ dev, routedBrand, url }) {
  if (NEVER_PROXIED.test(url)) return false;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (path.length > 1 && path.endsWith('/')) return false;
  if (dev || !routedBrand) return true;
  if (/[A-Z]/.test(path)) return true;
  return q >= 0 && new URLSearchParams(url.slice(q + 1)).has('state');
}

/**
 * The path prefix under which server.mjs hands a request to proxy.ts (its matcher; a client's
 * own request for it is refused: internalPathRefused). The proxy's matcher is also sent to the browser (_clientMiddlewareManifest.js), which tests it against
 * every page path it navigates to, ignoring its header condition: a matcher that matched pages
 * made the browser take every page for a proxied one and fetch its data again, in full, right
 * after every first load. No page path starts with this prefix; proxy.ts removes it.
 */
export const PROXY_PREFIX = '/__loansites-proxy';

/** A request target as handed to proxy.ts: / → /__loansites-proxy, /a?b → /__loansites-proxy/a?b. @param {string} url */
export function proxiedUrl(url) {
  return url === '/' || url.startsWith('/?') ? PROXY_PREFIX + url.slice(1) : PROXY_PREFIX + url;
}
