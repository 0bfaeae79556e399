/**
 * A request target's path as the front door reads it (engine/frontDoor/frontDoor.ts), and the paths it
 * builds for Next. Pure; table-tested with the front door (tests/unit/front-door.test.ts).
 *
 * The path is judged as Next and browsers will see it: percent-decoded, backslashes as slashes,
 * runs of slashes as one. WHATWG URL parsing (which Next applies to the target) resolves "." and
 * ".." segments, "%2e" spellings included, so "/api/%2e%2e/_brand/x" reaches /_brand/x. Browsers
 * resolve dot segments before they send a request; only a hand-made request carries one. So a
 * path with a dot segment, or with an encoded dot, slash or backslash (once or more times
 * encoded), is refused with 400 before anything else is decided: no spelling of a path can
 * name a page other than the one its plain spelling names. A query of more than MAX_QUERY_PARAMS
 * parameters is refused with 400 too.
 */

/** The internal prefix Next serves brand pages under: /_brand/{brandId}{path}. */
export const INTERNAL_PREFIX = '/_brand';

/**
 * The brand segment the browser names in its data requests (blocks/chrome/navigate.ts): it does
 * not know the brand id of the host it is on, so it names this placeholder and the front door
 * puts the host's brand in its place.
 */
export const CLIENT_BRAND = '_';

/**
 * The built-in demo lender's offer page (engine/sale/demoOffer.ts): a page of its own the front
 * door answers, outside the client router (it stands for another company's website).
 */
export const DEMO_OFFER_PATH = '/demo-lender/offer';

/** A brand's sitemap files: canonical numbers only (0, 1 … 9999; not 00 or 0001). */
export const SITEMAP_PATH = /^\/sitemaps\/(0|[1-9]\d{0,3})\.xml$/;
/** The same file as the SEO route names it. */
export const SITEMAP_FILE = /^sitemap-(0|[1-9]\d{0,3})\.xml$/;

/**
 * The internal path Next renders for a brand's 404 page: no route of any brand starts with "_",
 * so the brand page answers notFound and pages/_error.tsx shows the brand's own 404 page.
 */
export const NOT_FOUND_PAGE = '/_not-found';

/** The one place the internal path of a brand page is built: /_brand/{id} for the home page. */
export const internalPath = (brand: string, path: string, search = ''): string => `${INTERNAL_PREFIX}/${brand}${path === '/' ? '' : path}${search}`;

/** /robots.txt, /sitemap.xml and /sitemaps/{n}.xml → the file the SEO API route serves (pages/api/seo). */
export function seoFileOf(path: string): string | undefined {
  if (path === '/robots.txt' || path === '/sitemap.xml') return path.slice(1);
  const m = SITEMAP_PATH.exec(path);
  return m ? `sitemap-${m[1]}.xml` : undefined;
}

/** The SEO route's URL for a brand's file. */
export const seoUrl = (brand: string, file: string, search = ''): string => `/api/seo/${brand}/${file}${search}`;

export type Target =
  | {
      ok: true;
      /** the path as sent */
      path: string;
      /** "?…" as sent, or "" */
      search: string;
      /** percent-decoded, backslashes as slashes, runs of slashes as one */
      normalised: string;
    }
  | { ok: false; reason: string };

/** %2e, %2f, %5c, and the same encoded again (%252e …). */
const ENCODED_SEPARATOR = /%(?:25)*(?:2e|2f|5c)/i;

/**
 * More query parameters than any link of ours, a search form or an ad's click URL carries (a
 * dozen or two). Next reads a query for the routes it answers (the API, the console) by looking
 * up every parameter's name among all of them, in time growing with the square of their count:
 * 3,000 repeats of `a=1` (a 12 KB target) cost 0.24 s of the server's CPU on any API route or
 * console page. A target with more is refused before Next sees it.
 */
export const MAX_QUERY_PARAMS = 256;

/** How many parameters a query ("?…") has, as URLSearchParams counts them (empty ones between "&"s are none). */
export function queryParamCount(search: string): number {
  let count = 0;
  let start = 1;
  for (let i = 1; i <= search.length; i++) {
    if (i < search.length && search.charCodeAt(i) !== 38 /* & */) continue;
    if (i > start) count++;
    start = i + 1;
  }
  return count;
}

/** A request target (starting with "/") → its path, search and normalised path; or why it is refused. */
export function readTarget(target: string): Target {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const search = q < 0 ? '' : target.slice(q);
  if (queryParamCount(search) > MAX_QUERY_PARAMS) return { ok: false, reason: `The query has more than ${MAX_QUERY_PARAMS} parameters` };
  if (ENCODED_SEPARATOR.test(path)) return { ok: false, reason: 'Encoded dots, slashes and backslashes are not accepted in a path' };
  let decoded = path;
  if (path.includes('%')) {
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return { ok: false, reason: 'The path has a malformed percent-encoding' };
    }
  }
  const segments = decoded.split(/[\\/]/);
  if (segments.some((s) => s === '.' || s === '..')) return { ok: false, reason: 'Dot segments are not accepted in a path' };
  return { ok: true, path, search, normalised: decoded.replace(/\\/g, '/').replace(/\/{2,}/g, '/') };
}

/** Next's own files, the API and the shared public files: the same on every host (not the client router's data requests). */
export const NEXT_OWN = /^\/(?:_next\/(?!data\/)|api(?:\/|$)|static\/|logos\/|favicon\.ico$)/;

/** A path Next redirects before anything else: a trailing slash, a run of slashes, a backslash. */
export const nextRedirects = (path: string): boolean => path.includes('//') || path.includes('\\') || (path.length > 1 && path.endsWith('/'));

/**
 * Whether a same-origin link's path is one the front door answers with a brand page (or that
 * brand's 404 page, or a redirect to one): the paths the client router may take the visitor to
 * (blocks/chrome/navigate.ts). Next's files, the API, the SEO files, the internal prefix, the
 * demo lender's offer page and whatever is refused are loaded by the browser, as the front door
 * would answer them.
 */
export function isClientPagePath(path: string): boolean {
  const target = readTarget(path);
  if (!target.ok || isInternal(target.normalised) || target.normalised === DEMO_OFFER_PATH) return false;
  return !path.startsWith('/_next/') && !NEXT_OWN.test(path) && !nextRedirects(path) && seoFileOf(path) === undefined;
}

/** The brand an internal path names (/_brand/{id}…): the brand the front door chose for a page it handed Next. */
export function brandOfInternalPath(url: string): string | undefined {
  const m = /^\/_brand\/([^/?]+)/.exec(url);
  return m && m[1] !== CLIENT_BRAND ? m[1] : undefined;
}

/** Whether a normalised path is the internal prefix or under it, in any case. */
export function isInternal(normalised: string): boolean {
  const lower = normalised.toLowerCase();
  return lower === INTERNAL_PREFIX || lower.startsWith(INTERNAL_PREFIX + '/');
}

/** A data request for an internal page: /_next/data/{build}/_brand/{brand}… (the brand segment captured). */
const DATA_INTERNAL = /^\/_next\/data\/[^/]+\/_brand(?:\/([^/]*))?/i;

/** The brand a data request for an internal page names (placeholder included), or undefined when it is not one. */
export function internalDataBrand(normalised: string): string | undefined {
  const m = DATA_INTERNAL.exec(normalised);
  return m ? (m[1] ?? '').replace(/\.json$/i, '') : undefined;
}

const CLIENT_DATA = /^(\/_next\/data\/[^/?]+\/)_brand\/_(?=[/.])(.*)$/;
/**
 * A data request by page path (/_next/data/{build}/{path}.json; the home page: index.json, a path
 * starting with /index gets a second index/ in front, as Next writes them): the client router's
 * background HEAD after a navigation, which tells Next to revalidate a stale page.
 */
const PAGE_DATA = /^(\/_next\/data\/[^/?]+)\/(?!_)([^?]+)\.json(\?.*)?$/;

/**
 * The client router's data request for the host's brand: the placeholder brand's
 * (/_next/data/{build}/_brand/_/{path}.json) or a page path's. Undefined when the target is
 * neither (the internal-prefix refusal comes first).
 */
export function brandDataUrl(target: string, brand: string): string | undefined {
  const m = CLIENT_DATA.exec(target);
  if (m) return `${m[1]}_brand/${brand}${m[2]}`;
  const p = PAGE_DATA.exec(target);
  if (!p) return undefined;
  const [, prefix, file = '', search = ''] = p;
  const path = file === 'index' ? '' : file.startsWith('index/') ? file.slice('index'.length) : `/${file}`;
  if (path.includes('//') || path.includes('\\')) return undefined;
  return `${prefix}/_brand/${brand}${path}.json${search}`;
}

/** The page path a data request is for (for the blog-host rule), or undefined when it names none. */
export function dataPagePath(url: string): string | undefined {
  const m = /^\/_next\/data\/[^/?]+\/_brand\/[^/?]+?(\/[^?]*)?\.json(?:\?|$)/.exec(url);
  return m ? m[1] || '/' : undefined;
}
