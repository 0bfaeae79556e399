// @ts-check
/**
 * What server.mjs decides about a request before Next sees it (plain JavaScript: server.mjs
 * imports it; table tests in tests/unit/request-gate.test.ts):
 * - which brand its Host header routes to (the build's host table, .next/loansites-host-table.json,
 *   written from the catalog the build used, so server and build agree);
 * - whether proxy.ts must see it (then under PROXY_PREFIX): in development every page (brand
 *   files, new hosts included, are re-read on save), and in production only for what a rewrite
 *   cannot do — a host no rewrite routes (unknown hosts, blog hosts, brands left out of the
 *   build), a path with capitals (/location/TX → 308 /location/tx) and a search (?state=…). A
 *   cached page never does;
 * - the internal prefix: /_brand/… asked for directly is a 404 for everyone but Next's own
 *   revalidation (x-prerender-revalidate equal to the build's preview-mode id); the client
 *   router's data requests for it (/_next/data/{build}/_brand/_/…, the placeholder the browser's
 *   rewrite names) only on a routed host, and they are given that host's brand.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { timingSafeEqual } from 'node:crypto';

/** The request header that makes proxy.ts run (its matcher); server.mjs sets it, never a client. */
export const PROXY_HEADER = 'x-loansites-proxy';

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

/** Host header → the brand the rewrites route it to, memoised per distinct header value (bounded). */
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

/** The brand segment the browser's rewrite names (engine/hostRoutes.ts CLIENT_BRAND). */
export const CLIENT_BRAND = '_';

/**
 * Whether a request for the internal prefix must be refused (404). The client router's data
 * requests name the placeholder brand (clientDataRequest below gives them the host's brand, or
 * hands them to proxy.ts), or, on a routed host, that host's own brand.
 * @param {{ path: string, routedBrand: string | undefined, revalidateHeader: string | undefined, previewModeId: string | null }} r
 */
export function internalPathRefused({ path, routedBrand, revalidateHeader, previewModeId }) {
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

const CLIENT_DATA = /^(\/_next\/data\/[^/?]+\/)_brand\/_(?=[/.])(.*)$/;

/**
 * A client router data request for the placeholder brand (/_next/data/{build}/_brand/_/{path}.json,
 * from the browser's one rewrite): on a routed host, the same request for the host's brand; on
 * any other host (one proxy.ts routes: development, blog hosts, brands added after the build),
 * the page path's data request handed to proxy.ts — /_next/data/{build}/__loansites-proxy/{path}.json.
 * Anything else: undefined. (Refusal is internalPathRefused's: call it first.)
 * @param {string} url the request target @param {string | undefined} routedBrand
 * @returns {{ url: string, proxy: boolean } | undefined}
 */
export function clientDataRequest(url, routedBrand) {
  const m = CLIENT_DATA.exec(url);
  if (!m) return undefined;
  if (routedBrand) return { url: `${m[1]}_brand/${routedBrand}${m[2]}`, proxy: false };
  return { url: `${m[1]}${PROXY_PREFIX.slice(1)}${m[2]}`, proxy: true };
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
 * the client router's data requests, which a routed host's rewrites answer and anything else
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
 * The path prefix under which server.mjs hands a request to proxy.ts (its matcher). The proxy's
 * matcher is also sent to the browser (_clientMiddlewareManifest.js), which tests it against
 * every page path it navigates to, ignoring its header condition: a matcher that matched pages
 * made the browser take every page for a proxied one and fetch its data again, in full, right
 * after every first load. No page path starts with this prefix; proxy.ts removes it.
 */
export const PROXY_PREFIX = '/__loansites-proxy';

/** A request target as handed to proxy.ts: / → /__loansites-proxy, /a?b → /__loansites-proxy/a?b. @param {string} url */
export function proxiedUrl(url) {
  return url === '/' || url.startsWith('/?') ? PROXY_PREFIX + url.slice(1) : PROXY_PREFIX + url;
}
