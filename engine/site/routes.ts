/**
 * Route patterns → compiled matchers, and path → route match with typed, validated
 * parameters (SPEC §2). A parameter that has the right shape but names nothing real
 * (an unknown state, a city not in that state, a loan type the brand does not offer,
 * page 1) makes that route not match, so the next one is tried and, at the end, the
 * brand's 404 is shown.
 */
import type { LoanType, Route } from '../../schemas/brand.types';
import { isParamKind, OPTIONAL_PARAM, PARAM_KINDS, parseParams, ROUTE_PARAMS, type ParamKind, type RouteParams } from './routeParams';

export { BORROW_AMOUNTS, PARAM_KINDS, type ParamKind, type RouteParams } from './routeParams';

/** A route as a brand file writes it (schemas/brand.base.json "route"). */
export type RouteSpec = Route;

export interface CompiledRoute extends Route {
  index: number;
  params: ParamKind[];
  regex: RegExp;
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
    const optional = segment === `{${OPTIONAL_PARAM}?}`;
    if (optional) {
      if (i !== segments.length - 1) throw new RoutePatternError(`{${OPTIONAL_PARAM}?} can only be the last part of a path`);
      params.push(OPTIONAL_PARAM);
      source += `(?:/(?<${OPTIONAL_PARAM}>${ROUTE_PARAMS[OPTIONAL_PARAM].shape}))?`;
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
      if (name.endsWith('?')) throw new RoutePatternError(`only {${OPTIONAL_PARAM}?} may be optional, as a whole last part of the path (found {${name}})`);
      if (!isParamKind(name)) {
        throw new RoutePatternError(`unknown parameter {${name}} (known: ${PARAM_KINDS.map((k) => `{${k}}`).join(', ')}, {${OPTIONAL_PARAM}?})`);
      }
      const kind = name;
      if (params.includes(kind)) throw new RoutePatternError(`parameter {${kind}} appears twice`);
      params.push(kind);
      part += `(?<${kind}>${ROUTE_PARAMS[kind].shape})`;
      rest = rest.slice(close + 1);
      if (rest.startsWith('{')) throw new RoutePatternError(`two parameters must be separated by text in "${segment}"`);
    }
    source += '/' + part;
  });
  source += segments.length ? '$' : '/$';
  const stateKinds = params.filter((p) => p === 'state' || p === 'stateCode' || p === 'cityState');
  if (stateKinds.length > 1)
    throw new RoutePatternError(`use one of {state}, {stateCode} and {cityState}, not ${stateKinds.map((k) => `{${k}}`).join(' and ')}`);
  return { ...spec, index, params, regex: new RegExp(source) };
}

/** Exact disabled paths, or prefixes written as "/title-loans/*". */
export function isDisabled(path: string, disabled: readonly string[] | undefined): boolean {
  if (!disabled) return false;
  return disabled.some((d) => (d.endsWith('/*') ? path === d.slice(0, -2) || path.startsWith(d.slice(0, -1)) : path === d));
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
    const params = parseParams(m.groups ?? {}, opts);
    if (!params) continue;
    if (!params.loanType && route.loanType) params.loanType = route.loanType;
    return { route, params };
  }
  return undefined;
}
