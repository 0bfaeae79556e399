/**
 * Which page of a brand a path names: its route match (the front door, getStaticProps, the
 * sitemap and the tests ask here), and where a search form's ?state= goes.
 */
import { specOf } from './blockSpec';
import type { LoadedBrand } from './catalog';
import { matchRoute, type RouteMatch } from './routes';
import { ROUTE_PARAMS, stateItemVars, type ParamKind } from './routeParams';
import { STATES } from '../geo/states';
import { fill } from './templates';

/** The brand's 404 page model's own path (prerendered with each brand; pages/_error.tsx shows it). */
export const NOT_FOUND_PATH = '/_404';

export function matchPath(loaded: LoadedBrand, path: string): RouteMatch | undefined {
  return matchRoute(loaded.routes, path, { loanTypes: loaded.brand.loanTypes, disabledPaths: loaded.brand.disabledPaths });
}

/**
 * The path a page is known by (its canonical URL, and the one path the sitemap lists) when a
 * brand shows one page at two paths — two URLs each calling itself canonical are duplicates to a
 * search engine:
 * - a route's `"canonical"`: an older address kept answering names the one the site links
 *   (ustitleloans /title-loans-near-me/location/{state} → /title-loans-near-me/{state});
 * - a route with {loanType} beside the same route without it (same layout and parameters, the
 *   loan type fixed): usinstallmentloans /installment-loans/state/{state} is /state/{state}.
 * The other path must show the same layout, or the page keeps its own.
 */
export function canonicalPath(loaded: LoadedBrand, path: string, match: RouteMatch): string {
  const { route } = match;
  if (route.canonical) {
    const groups = route.regex.exec(path)?.groups ?? {};
    const target = route.canonical
      .replace(/\/\{page\?\}$/, groups.page ? `/${groups.page}` : '')
      .replace(/\{(\w+)\}/g, (_, k: string) => groups[k] ?? `{${k}}`);
    const there = matchPath(loaded, target);
    return there && there.route !== route && !there.route.canonical && there.route.layout === route.layout ? target : path;
  }
  const segments = route.path.split('/');
  const at = segments.indexOf('{loanType}');
  if (at < 0 || !match.params.loanType) return path;
  const shortPattern = segments.filter((_, i) => i !== at).join('/') || '/';
  const same = loaded.routes.find(
    (r) =>
      r.path === shortPattern &&
      r.loanType === match.params.loanType &&
      r.layout === route.layout &&
      JSON.stringify(r.layoutParams ?? {}) === JSON.stringify(route.layoutParams ?? {}),
  );
  if (!same) return path;
  const short =
    path
      .split('/')
      .filter((_, i) => i !== at)
      .join('/') || '/';
  return matchPath(loaded, short)?.route === same ? short : path;
}

/**
 * Whether the brand's routes alone say `path` is a page: it matches a route none of whose
 * parameters the content store decides. `/blog/{list}/{page?}` matches any word after /blog/,
 * but only a category with articles is a page, which the routes cannot know.
 */
export function isPageByRoutes(loaded: LoadedBrand, path: string): boolean {
  const match = matchPath(loaded, path);
  return match !== undefined && match.route.params.every((k: ParamKind) => ROUTE_PARAMS[k].sitemap !== 'content');
}

/**
 * A search form submits ?state=…&type=… to its own page; the front door asks here where that goes.
 * Returns the target path when the page has a searchForm and the state (and loan type) are
 * real and the target resolves, otherwise undefined (the page itself is shown).
 */
export function searchRedirect(loaded: LoadedBrand, path: string, query: URLSearchParams): string | undefined {
  const stateParam = query.get('state')?.toLowerCase().trim();
  if (!stateParam) return undefined;
  const match = matchPath(loaded, path);
  const layout = match && loaded.layout(match.route.layout, match.route.layoutParams);
  const form = layout?.blocks.find((b) => specOf(loaded.specs, b.type).searchTarget);
  const searchTarget = form && specOf(loaded.specs, form.type).searchTarget;
  if (!match || !form || !searchTarget) return undefined;
  const state = STATES.find((s) => s.slug === stateParam || s.code === stateParam || s.name.toLowerCase() === stateParam);
  const typeParam = query.get('type')?.toLowerCase().trim();
  // no type asked (a link or a search engine's SearchAction, not the form): the page's own loan
  // type — /payday-loans/search?state=texas means payday loans — else the brand's first
  const pageType = match.params.loanType ?? match.route.loanType;
  const ownType = pageType && loaded.brand.loanTypes.includes(pageType) ? pageType : loaded.brand.loanTypes[0];
  const loanType = loaded.brand.loanTypes.find((t) => t === typeParam) ?? (typeParam ? undefined : ownType);
  if (!state || !loanType) return undefined;
  const template = searchTarget(form, loanType);
  const target = fill(template, { ...stateItemVars(state), 'loanType.slug': loanType });
  return matchPath(loaded, target) ? target : undefined;
}

const searchPages = new WeakMap<LoadedBrand, { path: string | undefined }>();

/**
 * The brand's search page: the first page with a search form whose route needs no value but the
 * loan type (the brand's first, which searchRedirect picks too when the query names none) —
 * `?state=…` on it goes to that state's page. Undefined when the brand has none. Asked once per
 * brand document: every page's structured data names it.
 */
export function searchPagePath(loaded: LoadedBrand): string | undefined {
  let known = searchPages.get(loaded);
  if (!known) {
    const route = loaded.routes.find(
      (r) => r.params.every((k) => k === 'loanType') && loaded.layout(r.layout, r.layoutParams)?.blocks.some((b) => specOf(loaded.specs, b.type).searchTarget),
    );
    const path = route?.path.replace('{loanType}', loaded.brand.loanTypes[0] ?? '');
    searchPages.set(loaded, (known = { path: path && matchPath(loaded, path)?.route === route ? path : undefined }));
  }
  return known.path;
}
