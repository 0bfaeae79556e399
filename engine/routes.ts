/**
 * Route patterns → compiled matchers, and path → route match with typed, validated
 * parameters (SPEC §2). A parameter that has the right shape but names nothing real
 * (an unknown state, a city not in that state, a loan type the brand does not offer,
 * page 1) makes that route not match, so the next one is tried and, at the end, the
 * brand's 404 is shown.
 */
import type { LoanType } from '../schemas/brand.types';
import type { StoreBrand } from './data/stores';
import { cityAnywhere, cityFromCityStateSlug, cityInState, type City } from './cities';
import { cityPageCount, LETTER_GROUPS, storeBySlug } from './directory';
import { stateByCode, stateBySlug, type State } from './states';

export const PARAM_KINDS = ['state', 'stateCode', 'city', 'cityState', 'letter', 'page', 'list', 'slug', 'loanType', 'letterGroup', 'amount', 'store'] as const;

/** SPEC §2: /borrow-money/{amount}-dollar-loan exists for these amounts. */
export const BORROW_AMOUNTS = [100, 200, 300, 500, 1000, 2000] as const;
export type ParamKind = (typeof PARAM_KINDS)[number];

const SHAPE: Record<ParamKind, string> = {
  state: '[a-z]+(?:-[a-z]+)*',
  stateCode: '[a-z]{2}',
  city: '[a-z0-9]+(?:-[a-z0-9]+)*',
  cityState: '[a-z0-9]+(?:-[a-z0-9]+)*-[a-z]{2}',
  letter: '[a-z]',
  page: '[1-9][0-9]{0,3}',
  list: '[a-z0-9-]+',
  // a content slug has at least one letter, so /answers/2 is a page number and /answers/apr-basics a slug
  slug: '(?=[a-z0-9-]*[a-z])[a-z0-9]+(?:-[a-z0-9]+)*',
  loanType: '[a-z]+(?:-[a-z]+)*',
  letterGroup: '[a-z]+',
  amount: '[1-9][0-9]{1,5}',
  store: '[a-z0-9]+(?:-[a-z0-9]+)*',
};

export interface RouteSpec {
  path: string;
  layout: string;
  loanType?: LoanType;
  content?: 'article' | 'answer' | 'hub' | 'author' | 'category' | 'tag';
}

export interface CompiledRoute extends RouteSpec {
  index: number;
  params: ParamKind[];
  regex: RegExp;
}

export interface RouteParams {
  state?: State;
  city?: City;
  letter?: string;
  page?: number;
  list?: string;
  slug?: string;
  loanType?: LoanType;
  letterGroup?: string;
  amount?: number;
  store?: StoreBrand;
}

export interface RouteMatch {
  route: CompiledRoute;
  params: RouteParams;
}

export class RoutePatternError extends Error {}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Compile one pattern such as "/{loanType}/location/cities-start-with-{letter}/{page?}". */
export function compileRoute(spec: RouteSpec, index: number): CompiledRoute {
  const params: ParamKind[] = [];
  const segments = spec.path === '/' ? [] : spec.path.slice(1).split('/');
  let source = '^';
  segments.forEach((segment, i) => {
    const optional = /^\{page\?\}$/.test(segment);
    if (optional) {
      if (i !== segments.length - 1) throw new RoutePatternError('{page?} can only be the last part of a path');
      params.push('page');
      source += `(?:/(?<page>${SHAPE.page}))?`;
      return;
    }
    let part = '';
    let rest = segment;
    while (rest) {
      const open = rest.indexOf('{');
      if (open < 0) {
        if (rest.includes('}')) throw new RoutePatternError(`"}" without "{" in "${segment}"`);
        part += escapeRegex(rest);
        break;
      }
      part += escapeRegex(rest.slice(0, open));
      const close = rest.indexOf('}', open);
      if (close < 0) throw new RoutePatternError(`"{" without "}" in "${segment}"`);
      const name = rest.slice(open + 1, close);
      if (name.endsWith('?')) throw new RoutePatternError(`only {page?} may be optional, as a whole last part of the path (found {${name}})`);
      if (!(PARAM_KINDS as readonly string[]).includes(name)) {
        throw new RoutePatternError(`unknown parameter {${name}} (known: ${PARAM_KINDS.map((k) => `{${k}}`).join(', ')}, {page?})`);
      }
      const kind = name as ParamKind;
      if (params.includes(kind)) throw new RoutePatternError(`parameter {${kind}} appears twice`);
      params.push(kind);
      part += `(?<${kind}>${SHAPE[kind]})`;
      rest = rest.slice(close + 1);
      if (rest.startsWith('{')) throw new RoutePatternError(`two parameters must be separated by text in "${segment}"`);
    }
    source += '/' + part;
  });
  source += segments.length ? '$' : '/$';
  const stateKinds = params.filter((p) => p === 'state' || p === 'stateCode' || p === 'cityState');
  if (stateKinds.length > 1) throw new RoutePatternError(`use one of {state}, {stateCode} and {cityState}, not ${stateKinds.map((k) => `{${k}}`).join(' and ')}`);
  return { ...spec, index, params, regex: new RegExp(source) };
}

/** Exact disabled paths, or prefixes written as "/title-loans/*". */
export function isDisabled(path: string, disabled: readonly string[] | undefined): boolean {
  if (!disabled) return false;
  return disabled.some((d) => (d.endsWith('/*') ? path === d.slice(0, -2) || path.startsWith(d.slice(0, -1)) : path === d));
}

/** Check the captured values against the data; undefined when any is not real. */
function typedParams(groups: Record<string, string | undefined>, allowedLoanTypes: readonly LoanType[]): RouteParams | undefined {
  const out: RouteParams = {};
  if (groups.state !== undefined) {
    out.state = stateBySlug(groups.state);
    if (!out.state) return undefined;
  }
  if (groups.stateCode !== undefined) {
    out.state = stateByCode(groups.stateCode);
    if (!out.state) return undefined;
  }
  if (groups.city !== undefined) {
    out.city = out.state ? cityInState(out.state.code, groups.city) : cityAnywhere(groups.city);
    if (!out.city) return undefined;
  }
  if (groups.cityState !== undefined) {
    out.city = cityFromCityStateSlug(groups.cityState);
    if (!out.city) return undefined;
    out.state = stateByCode(out.city.stateCode);
  }
  if (groups.page !== undefined) {
    const page = Number(groups.page);
    if (!(page >= 2 && page <= 9999)) return undefined;
    out.page = page;
  }
  if (groups.letter !== undefined) {
    out.letter = groups.letter;
    // Letter pages list cities: a page past the last one does not exist.
    if (out.page !== undefined && out.page > cityPageCount(groups.letter)) return undefined;
  }
  if (groups.letterGroup !== undefined) {
    if (!(LETTER_GROUPS as readonly string[]).includes(groups.letterGroup)) return undefined;
    out.letterGroup = groups.letterGroup;
  }
  if (groups.amount !== undefined) {
    const amount = Number(groups.amount);
    if (!(BORROW_AMOUNTS as readonly number[]).includes(amount)) return undefined;
    out.amount = amount;
  }
  if (groups.store !== undefined) {
    out.store = storeBySlug(groups.store);
    if (!out.store) return undefined;
  }
  if (groups.list !== undefined) out.list = groups.list;
  if (groups.slug !== undefined) out.slug = groups.slug;
  if (groups.loanType !== undefined) {
    if (!(allowedLoanTypes as readonly string[]).includes(groups.loanType)) return undefined;
    out.loanType = groups.loanType as LoanType;
  }
  return out;
}

export const MAX_PATH_LENGTH = 512;

/** First route whose pattern and parameters both fit, or undefined (→ the brand's 404). */
export function matchRoute(
  routes: readonly CompiledRoute[],
  path: string,
  opts: { loanTypes: readonly LoanType[]; disabledPaths?: readonly string[] },
): RouteMatch | undefined {
  if (path.length > MAX_PATH_LENGTH || isDisabled(path, opts.disabledPaths)) return undefined;
  for (const route of routes) {
    const m = route.regex.exec(path);
    if (!m) continue;
    const params = typedParams(m.groups ?? {}, opts.loanTypes);
    if (!params) continue;
    if (!params.loanType && route.loanType) params.loanType = route.loanType;
    return { route, params };
  }
  return undefined;
}
