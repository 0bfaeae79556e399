/** Link lists several blocks (and the footer) build: states, page numbers. */
import type { StateExclusions } from '../../schemas/brand.types';
import type { LinkView } from '../site/model';
import { stateItemVars } from '../site/routeParams';
import { STATE_SETS, STATES, type State } from '../geo/states';
import { fill } from '../site/templates';

function statesExcluding(exclude: StateExclusions | undefined): readonly State[] {
  if (!exclude?.length) return STATES;
  return STATES.filter((s) => !exclude.some((set) => STATE_SETS[set].has(s.name)));
}

/** One link per state (less the excluded sets), its href the template filled with the state's variables. */
export const stateLinks = (template: string, exclude?: StateExclusions): LinkView[] =>
  statesExcluding(exclude).map((s) => ({ label: s.name, href: fill(template, stateItemVars(s)) }));

/** Page links 1…n around the current one; page 1 is the path without a number (SPEC: no page 1 in paths). */
export function pageLinks(basePath: string, current: number, count: number): (LinkView & { current: boolean })[] {
  const wanted = new Set([1, count, current - 2, current - 1, current, current + 1, current + 2].filter((n) => n >= 1 && n <= count));
  return [...wanted].sort((a, b) => a - b).map((n) => ({ label: String(n), href: n === 1 ? basePath : `${basePath}/${n}`, current: n === current }));
}

/** The path of a paginated page without its page number. */
export const withoutPageNumber = (path: string, page: number | undefined): string => (page ? path.slice(0, path.lastIndexOf('/')) : path);
