/**
 * Which page of a brand a path names: its route match (the front door, getStaticProps, the
 * sitemap and the tests ask here), and where a search form's ?state= goes.
 */
import { specOf } from '../blockSpecs';
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
  const form = layout?.blocks.find((b) => specOf(b.type).searchTarget);
  const searchTarget = form && specOf(form.type).searchTarget;
  if (!form || !searchTarget) return undefined;
  const state = STATES.find((s) => s.slug === stateParam || s.code === stateParam || s.name.toLowerCase() === stateParam);
  const typeParam = query.get('type')?.toLowerCase().trim();
  const loanType = loaded.brand.loanTypes.find((t) => t === typeParam) ?? (typeParam ? undefined : loaded.brand.loanTypes[0]);
  if (!state || !loanType) return undefined;
  const template = searchTarget(form, loanType);
  const target = fill(template, { ...stateItemVars(state), 'loanType.slug': loanType });
  return matchPath(loaded, target) ? target : undefined;
}
