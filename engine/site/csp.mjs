// @ts-check
/**
 * The Content-Security-Policy, built in one place: server.mjs sends it with every response — the
 * base policy, or for a brand page the base policy plus what that page uses, which the front door
 * decides (engine/frontDoor/frontDoor.ts, engine/site/pagePolicy.ts). Every policy allows connections to the
 * error-report DSN's origin when SENTRY_DSN is set (the browser posts reports there). Pure but
 * for the defaults read from the environment; table tests: tests/unit/csp.test.ts.
 *
 * Inline scripts are allowed by hash, never by nonce: pages are cached (ISR), and a
 * per-request nonce would make every page dynamic. The inline scripts are the error reporter
 * (engine/errors/reporterScript.mjs), the loader that starts the page's scripts after its first
 * paint (engine/browser/afterPaintScript.mjs) and React's reveal scripts for outlined Suspense boundaries
 * (engine/site/reactInlineScripts.mjs); Next's __NEXT_DATA__ and the JSON-LD are data
 * (type="application/json" / "application/ld+json"), which CSP does not block.
 *
 * A tag-manager container can only run what the policy allows: tags that load scripts from
 * Google's hosts work; Custom HTML tags (inline scripts) and Custom JavaScript variables (eval)
 * are refused — add their sha256 here, or move them into a hosted script.
 *
 * Plain JavaScript typed with JSDoc, which TypeScript reads (tsconfig allowJs; no .d.mts to keep in step): server.mjs, on plain Node before Next loads, builds every response's header with it.
 */
import { createHash } from 'node:crypto';
import { parseDsn } from '../errors/dsn.mjs';
import { AFTER_PAINT_SCRIPT } from '../browser/afterPaintScript.mjs';
import { REPORTER_SCRIPT } from '../errors/reporterScript.mjs';
import { reactBoundaryScripts } from './reactInlineScripts.mjs';

/** @param {string} text */
export const sha256Source = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Hashes of every inline script the pages carry: the error reporter, the after-paint script loader, React's Suspense reveal scripts. */
export const INLINE_SCRIPT_HASHES = [REPORTER_SCRIPT, AFTER_PAINT_SCRIPT, ...reactBoundaryScripts()].map(sha256Source);

/** Google Tag Manager and the GA4 tags it loads (Google's own CSP guide for GA4/GTM). */
export const TAG_MANAGER = {
  script: ['https://www.googletagmanager.com'],
  connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'],
  img: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
};

/** The short-video ad platform's (TikTok) pixel: its script, its event posts and beacons. */
export const PIXEL = {
  script: ['https://analytics.tiktok.com'],
  connect: ['https://analytics.tiktok.com'],
  img: ['https://analytics.tiktok.com'],
};

/**
 * @typedef {object} PagePolicy
 * @property {boolean} [tagManager] the brand has a tag-manager container
 * @property {boolean} [pixel] the brand has the pixel (general brands)
 * @property {string[]} [connect] origins the page calls (the geocoder with GEOCODER=mapbox)
 * @property {string[]} [scripts] origins the page loads scripts from (a third-party form loader)
 * @property {string[]} [frames] origins the page frames (a third-party form)
 */

/**
 * The build's own inline scripts (Turbopack writes a chunk-loading bootstrap into each page
 * entry's HTML; its text depends on the build): server.mjs hashes the executable inline scripts
 * of the prerendered pages in .next/server/pages at start (inlineScripts) and passes them here
 * through this environment variable.
 */
export const BUILD_HASHES_ENV = 'LOANSITES_CSP_BUILD_HASHES';
const buildHashes = () => (process.env[BUILD_HASHES_ENV] ?? '').split(' ').filter(Boolean);

/** Whether a <script> with these attributes runs: no type or a JavaScript one; any other type (JSON, JSON-LD) is data. */
export function runsAsScript(/** @type {string} */ attrs) {
  const type = /\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attrs)?.[1]?.trim().toLowerCase();
  return !type || ['text/javascript', 'application/javascript', 'module'].includes(type);
}

/** The executable inline scripts of an HTML page: no src, and not a data type (JSON, JSON-LD). */
export function inlineScripts(/** @type {string} */ html) {
  /** @type {string[]} */
  const out = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? '';
    if (/\bsrc\s*=/i.test(attrs) || !runsAsScript(attrs)) continue;
    out.push(m[2] ?? '');
  }
  return out;
}

/**
 * The origin the browser's error reporter posts to: SENTRY_DSN's host, exactly (the same
 * variable pages/api/error-reporting.ts answers from), or none without a DSN.
 */
export const errorReportOrigin = (/** @type {string | undefined} */ dsn = process.env.SENTRY_DSN) => parseDsn(dsn)?.origin;

/** @param {string[]} list */
const unique = (list) => [...new Set(list)];

/** The policy for a page that uses exactly what `page` says (nothing third-party by default). */
export function contentSecurityPolicy(
  /** @type {PagePolicy} */ page = {},
  /** @type {string[]} */ extraHashes = buildHashes(),
  /** @type {string | undefined} */ errorOrigin = errorReportOrigin(),
) {
  const tm = page.tagManager ? TAG_MANAGER : undefined;
  const px = page.pixel ? PIXEL : undefined;
  const script = unique(["'self'", ...INLINE_SCRIPT_HASHES, ...extraHashes, ...(tm?.script ?? []), ...(px?.script ?? []), ...(page.scripts ?? [])]);
  const errors = errorOrigin ? [errorOrigin] : [];
  const connect = unique(["'self'", ...errors, ...(tm?.connect ?? []), ...(px?.connect ?? []), ...(page.connect ?? [])]);
  const img = unique(["'self'", 'data:', ...(tm?.img ?? []), ...(px?.img ?? [])]);
  const frames = page.frames?.length ? unique(page.frames) : ["'none'"];
  return [
    "default-src 'self'",
    `script-src ${script.join(' ')}`,
    // React writes style attributes (brand colours); Tailwind's CSS is a file.
    "style-src 'self' 'unsafe-inline'",
    `img-src ${img.join(' ')}`,
    "font-src 'self'",
    `connect-src ${connect.join(' ')}`,
    `frame-src ${frames.join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** An origin ("https://api.mapbox.com") of a URL, or undefined when it is not an http(s) URL. */
export function originOf(/** @type {string | undefined} */ url) {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The header to send, by CSP_MODE: "enforce" (default) → Content-Security-Policy,
 * "report-only" → Content-Security-Policy-Report-Only (to list violations before enforcing),
 * "off" → none.
 * @param {string | undefined} mode
 * @returns {'Content-Security-Policy' | 'Content-Security-Policy-Report-Only' | undefined}
 */
export function cspHeaderName(mode) {
  const m = (mode ?? '').trim().toLowerCase();
  if (m === 'off') return undefined;
  return m === 'report-only' ? 'Content-Security-Policy-Report-Only' : 'Content-Security-Policy';
}

/**
 * The console's policy (engine/frontDoor/consolePath.ts): its pages are server-rendered HTML with no
 * script at all (each sets unstable_runtimeJS: false), forms that post to its own API and charts
 * drawn as SVG on the server — so nothing may run, load from elsewhere, frame it or be framed.
 */
export const CONSOLE_POLICY = [
  "default-src 'none'",
  "script-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

/**
 * The console's area a console page's internal URL belongs to: the studio's editor pages run
 * their own script, its preview shows a draft inside the editor's frames, every other page runs none.
 * @param {string | undefined} url the URL Next is handed (/_console/…)
 * @returns {'console' | 'studio' | 'preview'}
 */
export function consoleArea(url) {
  const path = (url ?? '').replace(/[?#].*$/, '');
  if (/^\/_console\/studio-preview(?:\/|$)/.test(path)) return 'preview';
  if (/^\/_console\/studio(?:\/|$)/.test(path)) return 'studio';
  return 'console';
}

/**
 * The inline script Turbopack writes into a page's HTML to start its chunks: one push per chunk
 * group — _app's, then the page's — from their `pagesChunkGroupBootstrapParams` in
 * .next/server/pages/<page>/build-manifest.json, one line each. The studio's pages render per
 * request (nothing prerendered to hash), so server.mjs hashes these at start.
 * @param {unknown[]} groups the bootstrap params of _app and of the page, in that order
 * @param {string} [global] the manifest's chunkLoadingGlobal
 */
export const chunkBootstrapScript = (groups, global = 'TURBOPACK') =>
  groups.map((params) => `(globalThis[${JSON.stringify(global)}] || (globalThis[${JSON.stringify(global)}] = [])).push(${JSON.stringify(params)});`).join('\n');

/**
 * The studio's editor pages: the console's policy but that they run script — only our origin's
 * chunks, the after-paint loader and the build's chunk bootstraps by hash, nothing inline
 * otherwise, nothing from elsewhere — frame the preview (our origin only), and let React write
 * style attributes (a colour's swatch). Nothing may frame them.
 * @param {string[]} bootstrapHashes sha256 sources of the studio pages' chunk bootstraps
 */
export function studioPolicy(bootstrapHashes) {
  return [
    "default-src 'none'",
    `script-src 'self' ${[sha256Source(AFTER_PAINT_SCRIPT), ...bootstrapHashes].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * A draft's preview: the brand's page as visitors get it, without any script (nothing of an
 * unpublished draft runs), its colours as style attributes, framed only by the studio on our own origin.
 */
export const STUDIO_PREVIEW_POLICY = [
  "default-src 'none'",
  "script-src 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');
