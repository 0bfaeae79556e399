/**
 * The front door: what happens to a request, decided in one pure function before Next sees it.
 * server.mjs asks `decide` for every request (development and production alike), sets the
 * headers the decision names and then answers itself, replays a cached page, or hands Next the
 * URL the decision gives. Table test: tests/unit/front-door.test.ts.
 *
 * In order:
 * 1. refuse — methods no page has (405), a target that is not a path (400), a path with dot
 *    segments or encoded separators, a query of more than 256 parameters (400,
 *    engine/browser/requestPath.ts), no Host header or more than one, a believed
 *    X-Forwarded-Host with more than one value or an empty one (400), the internal prefix
 *    /_brand (404; only Next's own revalidation, carrying the build's preview-mode id, passes);
 * 2. console — the operators' console hosts (CONSOLE_HOSTS, and console.localhost outside a
 *    deployment): their paths mapped onto the console's pages and API (engine/frontDoor/consolePath.ts),
 *    anything else 404; on every other host the console's paths are refused (404);
 * 3. next — Next's own files and the API, and paths Next redirects first (a trailing slash,
 *    runs of slashes, a backslash), whatever the host: handed over untouched;
 * 4. unknown host (404, "Server error: host … not found") and site unavailable (503: the brand's
 *    file is broken; the other sites are not affected);
 * 5. next — the client router's data requests, given the host's brand;
 * 6. redirect — a blog host's / to /blog (308), a search form's ?state= to its page (302), a
 *    path with capitals to the lower-case page it names (308);
 * 7. demoLender — /demo-lender/offer, the built-in demo lender's offer page, on a brand's own
 *    host while the demo lender exists (not a deployment, no buyer documents: Door.demoLender),
 *    handed to its API route (the offer opens only on the brand of the host it was made on);
 *    otherwise that path is an ordinary unknown page of the brand. The API route itself is
 *    refused (404) when asked for directly: the offer page has one address;
 *    seo — robots.txt and the sitemaps, from the SEO API route;
 *    certificates — /certificate/<id> (a consent certificate's page) and
 *    /.well-known/loansites-certificate-keys.json (the keys that verify them), handed to their
 *    API routes (engine/browser/certificatePath.ts), which read the brand from the host;
 * 8. page — a brand page: its internal URL, its Content-Security-Policy (what it uses from third
 *    parties) and whether it may use geolocation; replayable from the page cache. A page under
 *    an experiment names the visitor's variant (./experiment.ts): each variant that changes the
 *    page is a page of its own, at its own internal URL and cache entry; the canonical URL,
 *    the visitor's URL and everything else stay the page's;
 * 9. not found — the brand's own 404 page.
 * Routing here, not in next.config.ts rewrites: Next sends every rewrite to the browser, and with
 * it the client's rewrite resolver (~3 KiB gzip of JavaScript on every page).
 */
import type { PagePolicy } from '../site/csp.mjs';
import type { Catalog } from '../site/catalog';
import type { CompiledRoute } from '../site/routes';
import { pageUsesGeolocation } from '../site/geolocation';
import { brandOfHost, DEV_PREFIXES, forwardedHostProblem, isBlogPath, requestHost } from '../site/hosts';

export { consoleHostsOf } from '../site/hosts';
import { pagePolicy } from '../site/pagePolicy';
import { matchPath, searchRedirect } from '../site/pageMatch';
import { DEMO_OFFER_PATH } from '../sale/demoOffer';
import { certificateRouteOf } from '../browser/certificatePath';
import { consoleUrl, isConsolePath } from './consolePath';
import { isPreviewModeId } from './previewMode';
import { dataWithVariant, underExperiment, withVariant, type PageExperiment } from './experiment';
import { readVariantPath, variantSegment } from '../site/experiments/variants';
import {
  brandDataUrl,
  CLIENT_BRAND,
  dataPagePath,
  internalDataBrand,
  internalPath,
  isInternal,
  NEXT_OWN,
  nextRedirects,
  NOT_FOUND_PAGE,
  readTarget,
  seoFileOf,
  seoUrl,
} from '../browser/requestPath';

/** What the front door reads of a request. */
export interface RequestFacts {
  method: string;
  /** the request target as sent (req.url) */
  target: string;
  host?: string | undefined;
  /** how many Host header lines came (engine/http/clientErrors.mjs hostHeaderCount): more than one is refused; left out, one */
  hostHeaders?: number | undefined;
  /** x-forwarded-host as node:http gives it (several lines joined with ", "); left out when the request has none */
  forwardedHost?: string | undefined;
  /** x-prerender-revalidate: Next's own revalidation presents the build's preview-mode id */
  revalidate?: string | undefined;
  /** the Cookie header: only the experiments' cookie is read (./experiment.ts) */
  cookie?: string | undefined;
}

/** What the front door decides by: the catalog and a few settings of the running server. */
export interface Door {
  catalog: Catalog;
  /** the build's preview-mode id (null without a build, and in development) */
  previewModeId: string | null;
  /** the operators' console hosts, normalised */
  consoleHosts: ReadonlySet<string>;
  /** believe x-forwarded-host (a trusted proxy in front sets it) */
  trustForwardedHost: boolean;
  /** a brand's problems are shown on its 503 page only outside production */
  production: boolean;
  /** the environment the page policies read (the geocoder's origin) */
  env: Record<string, string | undefined>;
  /** the built-in demo lender exists here (engine/sale/demoRoutes.ts demoLenderAvailable): its offer page is served on the brands' hosts */
  demoLender?: boolean;
  /** the time experiments are judged at (Date.now by default) */
  now?: () => number;
  /** a new first-party visitor id, for a visitor without the experiments' cookie (random by default) */
  newVisitorId?: () => string;
}

export type Decision =
  | { kind: 'refuse'; status: 400 | 404 | 405; reason: string }
  /** url: what Next is handed; undefined for a path the console does not have (404) */
  | { kind: 'console'; host: string; url: string | undefined }
  /** experiment: a data request for a page under an experiment (the client router's), with the visitor's variant */
  | { kind: 'next'; url: string; experiment?: PageExperiment }
  | { kind: 'unknownHost'; host: string }
  | { kind: 'unavailable'; brand: string; problems: string[] }
  | { kind: 'redirect'; status: 302 | 308; location: string }
  | { kind: 'seo'; brand: string; url: string }
  | { kind: 'demoLender'; brand: string; url: string }
  | {
      kind: 'page';
      brand: string;
      host: string;
      url: string;
      page: string;
      policy: PagePolicy;
      geolocation: boolean;
      /** the visitor's variant of the experiment covering the page, if one does */
      experiment?: PageExperiment;
    }
  | { kind: 'notFound'; brand: string; url: string; policy: PagePolicy };

/** Methods no page has (Next would answer them with a 500). */
export const REFUSED_METHODS: ReadonlySet<string> = new Set(['TRACE', 'TRACK', 'CONNECT']);
export const ALLOWED_METHODS = 'GET, HEAD, POST';

const DATA = /^\/_next\/data\//;
/** The API route that renders the demo lender's offer page. */
export const DEMO_LENDER_PAGE = '/api/demo-lender/offer';
/** That route asked for directly, in any spelling Next would route to it. */
const DEMO_LENDER_PAGE_ASKED = /^\/api\/demo-lender\/offer(?:$|[/.])/i;

/**
 * Next's image optimizer. No page uses it (no next/image), and it fetches the URL it is given
 * through Next's own router, past this door: the internal prefix and the console's paths with the
 * visitor's headers, on any host, answering 500 for a URL that redirects.
 */
const NEXT_IMAGE = /^\/_next\/image(?:$|\/)/i;

/** The offer page's internal URL: the link's offer, nothing else the visitor sent (the route reads the brand from the host). */
export function demoLenderPageUrl(search: string): string {
  const offer = new URLSearchParams(search).get('o');
  return offer === null ? DEMO_LENDER_PAGE : `${DEMO_LENDER_PAGE}?${new URLSearchParams({ o: offer })}`;
}

/** What happens to a request: the route it takes, then for a page under an experiment the visitor's variant. */
export const decide = (req: RequestFacts, door: Door): Decision => withVariant(decideRoute(req, door), req, door);

/**
 * The route a request takes, the same for every visitor (engine/frontDoor/server.ts remembers it
 * per host and target); a page under an experiment is then given the visitor's variant (withVariant).
 */
export function decideRoute(req: RequestFacts, door: Door): Decision {
  if (REFUSED_METHODS.has(req.method)) return { kind: 'refuse', status: 405, reason: `Method ${req.method} is not allowed` };
  if (!req.target.startsWith('/'))
    return req.method === 'OPTIONS'
      ? { kind: 'refuse', status: 405, reason: 'OPTIONS * is not supported' }
      : { kind: 'refuse', status: 400, reason: 'The request target must be a path' };
  const target = readTarget(req.target);
  if (!target.ok) return { kind: 'refuse', status: 400, reason: target.reason };
  // every site here is found by its host: a request without one names none (RFC 9112 §3.2: 400)
  if (req.host === undefined) return { kind: 'refuse', status: 400, reason: 'The request has no Host header' };
  // node:http keeps the first of two; a proxy in front may have routed by the other (RFC 9112 §3.2: 400)
  if ((req.hostHeaders ?? 1) > 1) return { kind: 'refuse', status: 400, reason: 'The request has more than one Host header' };
  // the same for a believed X-Forwarded-Host listing several hosts, or none: the brand is not guessed
  if (door.trustForwardedHost && req.forwardedHost !== undefined) {
    const problem = forwardedHostProblem(req.forwardedHost);
    if (problem) return { kind: 'refuse', status: 400, reason: problem };
  }
  const { path, search, normalised } = target;
  const notFound = { kind: 'refuse', status: 404, reason: 'Not found' } as const;

  const host = requestHost({ host: req.host ?? null, forwardedHost: req.forwardedHost ?? null }, door.trustForwardedHost);
  const { catalog } = door;
  const owner = brandOfHost(catalog, host);
  const brandId = owner?.id;
  const blogBrand = owner?.blog ? owner.id : undefined;

  if (isInternal(normalised)) return isPreviewModeId(req.revalidate, door.previewModeId) ? { kind: 'next', url: req.target } : notFound;
  if (DEMO_LENDER_PAGE_ASKED.test(normalised)) return notFound;
  if (NEXT_IMAGE.test(normalised)) return notFound;
  const named = internalDataBrand(normalised);
  if (named !== undefined && named !== CLIENT_BRAND && !(brandId && named === brandId)) return notFound;

  if (door.consoleHosts.has(host)) return { kind: 'console', host, url: consoleUrl(path, search) };
  if (isConsolePath(normalised)) return notFound;
  const untidy = !DATA.test(path) && nextRedirects(path);
  if (NEXT_OWN.test(path) || (untidy && !brandId)) return { kind: 'next', url: req.target };

  if (!brandId) return { kind: 'unknownHost', host: host || (req.host ?? '') };
  const loaded = catalog.brands.get(brandId);
  if (!loaded) return { kind: 'unavailable', brand: brandId, problems: door.production ? [] : [...(catalog.broken.get(brandId) ?? [])] };
  const blogOnly = (p: string) => blogBrand !== undefined && !isBlogPath(p);
  if (untidy) {
    // One redirect to the page's own address, where Next would take two or three (a run of
    // slashes, then the trailing slash, then the capitals): each hop is a round trip on a phone
    // and a link whose weight a search engine may not pass along. Never "//": no other origin.
    const tidy = path
      .replace(/\\/g, '/')
      .replace(/\/{2,}/g, '/')
      .replace(/(.)\/$/, '$1');
    const lower = tidy.toLowerCase();
    const location = lower !== tidy && !matchPath(loaded, tidy) && !blogOnly(lower) && matchPath(loaded, lower) ? lower : tidy;
    return { kind: 'redirect', status: 308, location: location + search };
  }

  if (DATA.test(path)) {
    // Next redirects these first: handed over as sent, its Location names the placeholder brand
    // the browser sent, not the host's brand at its internal path
    if (nextRedirects(path)) return { kind: 'next', url: req.target };
    if (named === brandId) {
      // the brand named outright is still judged by the blog host's rule
      const namedPage = dataPagePath(req.target);
      if (namedPage !== undefined && blogOnly(namedPage)) return notFound;
      // Next's router names the brand outright going back to the visit's first page: its history
      // entry holds the page as the server rendered it, a variant's internal path included. The
      // page's data is the visitor's variant now, as for any data request for it (the experiment
      // may have been paused, stopped or ended since, or the visitor's variant be another)
      const variant = namedPage === undefined ? undefined : readVariantPath(namedPage);
      const brandPrefix = `/_brand/${brandId}`;
      const url = variant ? req.target.replace(brandPrefix + variantSegment(variant.experiment, variant.variant), brandPrefix) : req.target;
      return dataWithVariant({ kind: 'next', url }, loaded, variant ? variant.path : namedPage, req, door);
    }
    const url = brandDataUrl(req.target, brandId);
    if (!url) return { kind: 'next', url: req.target };
    const pagePath = dataPagePath(url);
    if (pagePath !== undefined && blogOnly(pagePath)) return notFound;
    return dataWithVariant({ kind: 'next', url }, loaded, pagePath, req, door);
  }

  // the query goes along, as on every redirect here: an ad's utm_* and click ids must reach the page
  if (blogBrand && path === '/') return { kind: 'redirect', status: 308, location: `/blog${search}` };
  if (door.demoLender && !blogBrand && path === DEMO_OFFER_PATH) return { kind: 'demoLender', brand: brandId, url: demoLenderPageUrl(search) };
  const certificateRoute = certificateRouteOf(path);
  if (certificateRoute) return { kind: 'next', url: certificateRoute };
  const seo = seoFileOf(path);
  if (seo) return { kind: 'seo', brand: brandId, url: seoUrl(brandId, seo, search) };
  const query = new URLSearchParams(search);
  if (query.has('state')) {
    const to = searchRedirect(loaded, path, query);
    if (to) {
      // the rest of the query goes along, as on every redirect here (an ad's utm_* and click ids)
      query.delete('state');
      query.delete('type');
      const rest = query.toString();
      return { kind: 'redirect', status: 302, location: rest ? `${to}?${rest}` : to };
    }
  }
  const match = blogOnly(path) ? undefined : matchPath(loaded, path);
  if (!match) {
    const lower = path.toLowerCase();
    if (lower !== path && !blogOnly(lower) && matchPath(loaded, lower)) return { kind: 'redirect', status: 308, location: lower + search };
    return {
      kind: 'notFound',
      brand: brandId,
      url: internalPath(brandId, NOT_FOUND_PAGE),
      policy: pagePolicy(loaded.brand, undefined, door.env, loaded.specs),
    };
  }
  // the layout this route's pages show: its switched-off blocks ask for no policy
  const page = (route: CompiledRoute, segment = ''): Decision => {
    const layout = loaded.layout(route.layout, route.layoutParams);
    const at = segment + (segment && path === '/' ? '' : path);
    return {
      kind: 'page',
      brand: brandId,
      host,
      url: internalPath(brandId, at, search),
      page: internalPath(brandId, at),
      policy: pagePolicy(loaded.brand, layout, door.env, loaded.specs),
      geolocation: layout ? pageUsesGeolocation(layout, loaded.specs) : false,
    };
  };
  return underExperiment(page(match.route), loaded, match.route, page);
}

/** Device features are denied on every response; a page with "Use my location" allows geolocation on its own origin. */
export const PERMISSIONS_DENIED = 'geolocation=(), camera=(), microphone=(), payment=(), usb=(), interest-cohort=()';
export const PERMISSIONS_GEOLOCATION = 'geolocation=(self), camera=(), microphone=(), payment=(), usb=(), interest-cohort=()';
export const permissionsPolicy = (d: Decision): string => (d.kind === 'page' && d.geolocation ? PERMISSIONS_GEOLOCATION : PERMISSIONS_DENIED);

/** The brands' production hosts and blog hosts: Strict-Transport-Security is sent on these. */
export function productionHosts(catalog: Catalog): Set<string> {
  const hosts = new Set<string>();
  for (const { brand } of catalog.brands.values()) {
    for (const h of brand.hosts) hosts.add(h.toLowerCase());
    if (brand.blogHost) hosts.add(brand.blogHost.toLowerCase());
  }
  return hosts;
}

/**
 * A brand's dev. and test123. hosts: the same pages as production, for people checking a change
 * before it goes out. Search engines are told to keep them out of their results (X-Robots-Tag:
 * noindex on every answer), as well as being pointed at production by the pages' canonical URLs.
 */
export const isStagingHost = (host: string, production: ReadonlySet<string>): boolean =>
  !production.has(host) && DEV_PREFIXES.some((prefix) => host.startsWith(prefix));
