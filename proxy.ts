/**
 * Host routing for what the build's host table cannot do. Known hosts are routed by server.mjs
 * (engine/http/requestGate.mjs brandRequestUrl) without this proxy; server.mjs hands a request here (under
 * PROXY_PREFIX, the matcher below; a client's own request for it is refused there) only in development (brand files re-read on
 * save, new hosts included), for hosts no rewrite routes (unknown hosts: "Server error: host
 * {host} not found", escaped, 404; blog hosts; brands the build left out: 503), for a path with
 * capitals (/location/TX → 308 /location/tx) and for a search (?state=… → 302). Here: Host →
 * brand (exact lookup after normalising), path → route, then a rewrite to the brand's internal
 * page /_brand/{brandId}{path}, or to its own 404 page with status 404.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { getCatalog } from './engine/catalog';
import { isBlogPath, lookupBrandId, requestHost } from './engine/hosts';
import { matchPath, NOT_FOUND_PATH, searchRedirect } from './engine/resolve';
import { escapeHtml, plainPage } from './engine/errorPages';
import { contentPageExists } from './engine/content/exists';
import { draftCookieValid, isPreviewModeId } from './engine/http/previewMode';
import { PROXY_PREFIX } from './engine/http/requestGate.mjs';
import { pageUsesGeolocation } from './engine/geocode/permissions';
import { PAGE_POLICY_HEADER } from './engine/csp.mjs';
import { pagePolicy } from './engine/pagePolicy';

const GEOLOCATION_ALLOWED = 'geolocation=(self), camera=(), microphone=(), payment=(), usb=(), interest-cohort=()';

export const INTERNAL_PREFIX = '/_brand';

export async function proxy(request: NextRequest) {
  // server.mjs hands requests over under PROXY_PREFIX (see engine/http/requestGate.mjs); the page path follows it.
  const handed = request.nextUrl.pathname;
  const pathname = handed.startsWith(PROXY_PREFIX) ? handed.slice(PROXY_PREFIX.length) || '/' : handed;
  if (pathname === INTERNAL_PREFIX || pathname.startsWith(INTERNAL_PREFIX + '/')) {
    // Next's own on-demand revalidation requests the internal path with the build's preview-mode
    // id in this header (server.mjs lets it through without coming here); anyone else — any other
    // value, any host — gets a 404.
    if (isPreviewModeId(request.headers.get('x-prerender-revalidate'))) return rewriteTo(request, pathname);
    return plainPage(404, 'Not found', '<h1>Not found</h1>');
  }
  if (pathname.startsWith('/api/')) return rewriteTo(request, pathname);

  const rawHost = request.headers.get('host') ?? '';
  const host = requestHost({ host: rawHost, forwardedHost: request.headers.get('x-forwarded-host') }, process.env.TRUST_FORWARDED_HOST === '1');
  const catalog = getCatalog();
  const blogBrandId = lookupBrandId(catalog.blogHostMap, host);
  const brandId = blogBrandId ?? lookupBrandId(catalog.hostMap, host);
  if (!brandId) {
    const shown = (host || rawHost).slice(0, 255);
    return plainPage(404, 'Host not found', `<h1>Server error: host ${escapeHtml(shown)} not found</h1>`);
  }
  const loaded = catalog.brands.get(brandId);
  if (!loaded) {
    const details = process.env.NODE_ENV === 'production' ? '' : `<pre>${escapeHtml((catalog.broken.get(brandId) ?? []).join('\n'))}</pre>`;
    return plainPage(
      503,
      'Site unavailable',
      `<h1>This site is temporarily unavailable.</h1><p>Its configuration has a problem; the other sites are not affected.</p>${details}`,
    );
  }

  const url = request.nextUrl.clone();
  if (blogBrandId && pathname === '/') return relativeRedirect(request, '/blog', 308);
  const seoFile = seoFileOf(pathname);
  if (seoFile) {
    url.pathname = `/api/seo/${brandId}/${seoFile}`;
    return NextResponse.rewrite(url);
  }
  if (request.nextUrl.searchParams.has('state')) {
    const target = searchRedirect(loaded, pathname, request.nextUrl.searchParams);
    if (target) return relativeRedirect(request, target, 302);
  }
  // A blog host serves the brand's /blog pages only.
  const routeMatch = blogBrandId && !isBlogPath(pathname) ? undefined : matchPath(loaded, pathname);
  // /location/TX → 308 /location/tx: paths are lower-case; a path that matches once lower-cased is that page.
  if (!routeMatch && pathname !== pathname.toLowerCase()) {
    const lower = pathname.toLowerCase();
    if (!(blogBrandId && !isBlogPath(lower)) && matchPath(loaded, lower)) return relativeRedirect(request, lower + request.nextUrl.search, 308);
  }
  const draftMode = draftCookieValid(request.cookies.get('__prerender_bypass')?.value);
  const found = routeMatch !== undefined && (await contentPageExists(loaded, routeMatch, pathname, draftMode));
  url.pathname = `${INTERNAL_PREFIX}/${brandId}${found ? (pathname === '/' ? '' : pathname) : NOT_FOUND_PATH}`;
  const layout = found ? loaded.layout(routeMatch.route.layout) : undefined;
  const headers: Record<string, string> = {};
  // What the page uses from third parties; server.mjs turns it into the page's Content-Security-Policy.
  headers[PAGE_POLICY_HEADER] = JSON.stringify(pagePolicy(loaded.brand, layout));
  if (!found) return NextResponse.rewrite(url, { status: 404, headers });
  // server.mjs denies geolocation on every response; a page with "Use my location" allows its own origin.
  if (layout && pageUsesGeolocation(layout)) headers['Permissions-Policy'] = GEOLOCATION_ALLOWED;
  return NextResponse.rewrite(url, { headers });
}

/**
 * A redirect to a path on the host the visitor used, as a relative Location: the browser keeps
 * the scheme and host it asked with, so behind TLS it stays https, and no URL is ever built
 * from a request header. (Next's proxy adapter wants an absolute URL; given one on the
 * request's own origin, it writes the Location relative.)
 */
function relativeRedirect(request: NextRequest, path: string, status: 302 | 308) {
  const response = NextResponse.redirect(new URL(path, request.nextUrl.origin), status);
  response.headers.set('Cache-Control', 'no-store');
  return response;
}

/** The request as it was before server.mjs handed it over (never reached in practice: server.mjs does not hand these over). */
function rewriteTo(request: NextRequest, pathname: string) {
  const url = request.nextUrl.clone();
  url.pathname = pathname;
  return NextResponse.rewrite(url);
}

/** /robots.txt, /sitemap.xml and /sitemaps/{n}.xml → the file name the SEO API route serves. */
function seoFileOf(pathname: string): string | undefined {
  if (pathname === '/robots.txt' || pathname === '/sitemap.xml') return pathname.slice(1);
  // Canonical numbers only: /sitemaps/0.xml, /sitemaps/12.xml — not 00 or 0001.
  const m = /^\/sitemaps\/(0|[1-9]\d{0,3})\.xml$/.exec(pathname);
  return m ? `sitemap-${m[1]}.xml` : undefined;
}

export const config = {
  // Only what server.mjs hands over: under PROXY_PREFIX (a path no page has — the browser tests
  // this matcher against every page path; server.mjs refuses a client's request for it, so no
  // header condition is needed, and none is sent to every browser).
  matcher: '/__loansites-proxy/:path*',
};
