/**
 * Client-side navigation through Next's router (blocks/chrome/clientNavigation.ts loads this on
 * the first sign that a visitor is about to follow a link: a pointer over one — a touch starts
 * with one — or focus on one). The location search block uses it too. The route progress bar (#route-progress, in
 * Layout) follows the router's route events from the first navigation or prefetch on: every
 * route change of a page starts here (back and forward only return to entries it made).
 */
import { preloadStaticBlocks } from '../registry';
import { progressState, type RouteEvent } from '../../engine/browser/widgets/routeProgress';
// The brand the browser names: the page need not know its brand id; the front door gives the data request the host's brand.
import { CLIENT_BRAND, INTERNAL_PREFIX, isClientPagePath } from '../../engine/browser/requestPath';

let progressShown = false;
function showRouteProgress(): void {
  if (progressShown) return;
  progressShown = true;
  const bar = document.getElementById('route-progress');
  for (const name of ['routeChangeStart', 'routeChangeComplete', 'routeChangeError'] as RouteEvent[])
    window.next.router.events.on(name, () => bar?.setAttribute('data-state', progressState(name)));
}

/** Every page path is the brand page (pages/_brand/[brand]/[[...path]].tsx). */
export const BRAND_PAGE_ROUTE = `${INTERNAL_PREFIX}/[brand]/[[...path]]`;

/**
 * A page path as the router's href: the brand page with its parameters, the page's own search
 * kept. The router fetches its data from /_next/data/{build}/_brand/_/{path}.json and shows the
 * path itself in the address bar. This is what a next.config.ts rewrite resolved in the browser,
 * without the resolver Next ships with any rewrite (3.0 KiB gzip on every page; routing is
 * the front door's: engine/frontDoor/frontDoor.ts).
 */
export function brandPageHref(path: string): string {
  const url = new URL(path, 'http://page.invalid');
  const params = new URLSearchParams(url.search);
  params.delete('brand');
  params.delete('path');
  params.set('brand', CLIENT_BRAND);
  for (const segment of url.pathname.split('/')) if (segment) params.append('path', segment);
  return `${BRAND_PAGE_ROUTE}?${params}`;
}

/** Whether the front door answers this address of the site with a brand page (engine/browser/requestPath.ts); a file, the API or an SEO file is loaded by the browser. */
const isPage = (path: string): boolean => isClientPagePath(new URL(path, window.location.href).pathname);

/** Client-side navigation to a page path of this site ("/payday-loans?source1=x"); any other address is loaded by the browser. */
export function pushPage(path: string): Promise<boolean> {
  if (!isPage(path)) {
    window.location.assign(path);
    return Promise.resolve(true);
  }
  showRouteProgress();
  return window.next.router.push(brandPageHref(path), path);
}

/** Fetches a page's code and data ahead of a likely navigation, and the static blocks' chunk (the first load kept their HTML without their code). */
export function prefetchPage(path: string): Promise<void> {
  if (!isPage(path)) return Promise.resolve();
  showRouteProgress();
  preloadStaticBlocks().catch(() => undefined);
  return window.next.router.prefetch(brandPageHref(path), path);
}
