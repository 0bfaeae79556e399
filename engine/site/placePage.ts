/**
 * "The brand's page for a place": its city page when the brand has city routes (and the city is
 * one of ours), else its state page. Candidates are built from the brand's own routes — each
 * route with only place parameters filled in — and the first that matchPath accepts for the same
 * place wins (the way searchRedirect does it for states). Routes of the wanted loan type come
 * first; a whole-segment parameter (/title-loans/{state}) before one inside text
 * (/title-loans/{state}-cities, a list page).
 */
import type { LoanType } from '../../schemas/brand.types';
import type { LoadedBrand } from './catalog';
import { cityInState, cityStateSlug, type City } from '../geo/cities';
import { matchPath } from './pageMatch';
import type { CompiledRoute } from './routes';
import { slugify, stateByCode, type State } from '../geo/states';

export interface PlaceWanted {
  /** lowercase two-letter state code */
  state: string;
  /** a city name as the geocoder gives it ("Austin", "St. Louis") */
  city?: string;
  loanType?: LoanType;
}

const PLACE_PARAMS = new Set(['state', 'stateCode', 'city', 'cityState', 'loanType']);

const inState = (stateCode: string, slug: string) =>
  cityInState(stateCode, slug) ?? cityInState(stateCode, slug.replace(/^st-/, 'saint-').replace(/^ft-/, 'fort-').replace(/^mt-/, 'mount-'));

/**
 * A city named as a geocoder names it, in our table: "St. Louis" is "saint-louis", and Mapbox's
 * "Coeur d'Alene" / "O'Fallon" are our "coeur-d-alene" / "o-fallon" (the ZIP tables write the
 * apostrophe after a one-letter word as a space).
 */
export function cityNamed(stateCode: string, name: string): City | undefined {
  return inState(stateCode, slugify(name)) ?? inState(stateCode, slugify(name.replace(/(^|[^\p{L}\p{N}])(\p{L})['\u2019]/gu, '$1$2 ')));
}

function fillRoute(route: CompiledRoute, state: State, city: City | undefined, loanType: string): string | undefined {
  if (route.params.some((p) => !PLACE_PARAMS.has(p))) return undefined;
  const hasCity = route.params.includes('city') || route.params.includes('cityState');
  const hasState = route.params.includes('state') || route.params.includes('stateCode');
  if (city ? !hasCity : hasCity || !hasState) return undefined;
  const values: Record<string, string> = {
    state: state.slug,
    stateCode: state.code,
    loanType,
    ...(city ? { city: city.slug, cityState: cityStateSlug(city) } : {}),
  };
  return route.path.replace(/\{([a-zA-Z]+)\}/g, (_, name: string) => values[name] ?? '');
}

/** Whole-segment parameters first: /x/{state} is the state page, /x/{state}-cities a list. */
const wholeSegment = (route: CompiledRoute) => route.path.split('/').every((seg) => !seg.includes('{') || /^\{[a-zA-Z]+\}$/.test(seg));

function firstPage(loaded: LoadedBrand, state: State, city: City | undefined, loanType: LoanType): string | undefined {
  const routes = [...loaded.routes].sort((a, b) => Number(wholeSegment(b)) - Number(wholeSegment(a)) || a.index - b.index);
  const tried = new Set<string>();
  let fallback: string | undefined;
  for (const route of routes) {
    const path = fillRoute(route, state, city, loanType);
    if (!path || tried.has(path)) continue;
    tried.add(path);
    const match = matchPath(loaded, path);
    if (!match) continue;
    // The same place (a {city} without a state means the largest city of that name, maybe elsewhere).
    const p = match.params;
    if (city ? p.city?.slug !== city.slug || p.city.stateCode !== city.stateCode : p.state?.code !== state.code || p.city) continue;
    if (p.loanType === loanType) return path;
    fallback ??= path;
  }
  return fallback;
}

/** The path of the brand's page for a place, or undefined when it has none (no state pages). */
export function placePagePath(loaded: LoadedBrand, wanted: PlaceWanted): string | undefined {
  const state = stateByCode(wanted.state);
  if (!state) return undefined;
  const loanType = wanted.loanType && loaded.brand.loanTypes.includes(wanted.loanType) ? wanted.loanType : loaded.brand.loanTypes[0]!;
  const city = wanted.city ? cityNamed(state.code, wanted.city) : undefined;
  return (city && firstPage(loaded, state, city, loanType)) || firstPage(loaded, state, undefined, loanType);
}
