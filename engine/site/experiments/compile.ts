/**
 * A brand's experiments compiled with its catalog (engine/site/catalog.ts): which experiment
 * covers each route, and for each variant that changes the page the route its page renders
 * from (its layout made once, now, like every route's).
 *
 * A stopped experiment covers no route any more: its winner (or the control) is the route's own
 * page — the route's plain internal path and cache entry render the winner's layout, so every
 * visitor gets it from the one entry, whatever cookie they hold, and the front door does no
 * experiment work for it. The experiment stays listed (the console keeps its results).
 */
import type { Brand, Experiment, Layout } from '../../../schemas/brand.types';
import type { LayoutParams } from '../layoutParams';
import type { CompiledRoute } from '../routes';
import { allocationFor, detachedAllocation } from './allocation';
import { liveExperiment, type LiveExperiment } from './assign';
import { applyVariant, changesPage, fixedVariant, variantRouteOf } from './variants';

export interface BrandExperiment extends LiveExperiment {
  source: Experiment;
}

export interface BrandExperiments {
  /** every experiment of the brand, as written */
  list: readonly BrandExperiment[];
  /** the ids of the brand's experiments (a cookie naming another is dropped when it is next written) */
  ids: ReadonlySet<string>;
  /** the experiment covering a route, if any */
  of(route: CompiledRoute): BrandExperiment | undefined;
  /** the route a variant's page renders from (the route itself for a variant that changes nothing) */
  variantRoute(route: CompiledRoute, experiment: string, variant: string): CompiledRoute | undefined;
  /** the brand's routes as served: a stopped experiment's routes replaced by its winner's (absent when none is stopped) */
  served?: readonly CompiledRoute[];
}

export const NO_EXPERIMENTS: BrandExperiments = { list: [], ids: new Set(), of: () => undefined, variantRoute: () => undefined };

/**
 * @param layout the brand's layout by name and parameters (the route's own, filled)
 * @param register keeps a variant's layout under a name no layout file can have, for `layout(name)` to find
 * @param alone the brand is built alone (a studio draft), not served: its bandits get allocations of their own
 */
export function compileExperiments(
  brand: Brand,
  routes: readonly CompiledRoute[],
  layout: (name: string, params?: LayoutParams) => Layout | undefined,
  register: (name: string, made: Layout) => void,
  alone = false,
): BrandExperiments {
  const written = brand.experiments ?? [];
  if (!written.length) return NO_EXPERIMENTS;
  const list = written.map((e): BrandExperiment => {
    const live = liveExperiment(e, changesPage);
    // a bandit's new visitors are assigned by the weights it sets (./allocation.ts), its written ones until then
    return {
      ...live,
      ...(e.allocation === 'bandit' ? { allocation: (alone ? detachedAllocation : allocationFor)(brand.id, e.id, live.variants) } : {}),
      source: e,
    };
  });
  const byRoute = new Map<CompiledRoute, BrandExperiment>();
  const variantRoutes = new Map<string, CompiledRoute>();
  const winners = new Map<CompiledRoute, CompiledRoute>();
  for (const e of list) {
    for (const route of routes.filter((r) => e.source.routes.includes(r.path))) {
      if (e.status !== 'stopped') byRoute.set(route, e);
      for (const v of e.source.variants) {
        if (!changesPage(v)) {
          variantRoutes.set(`${route.index}~${e.id}~${v.id}`, route);
          continue;
        }
        const vr = variantRouteOf(route, v);
        const base = layout(vr.layout, vr.layoutParams);
        if (!base) continue;
        const name = `~${e.id}~${v.id}~${route.index}`;
        register(name, applyVariant(base, v));
        const { layoutParams: _params, ...rest } = route;
        variantRoutes.set(`${route.index}~${e.id}~${v.id}`, { ...rest, layout: name });
      }
      const winner = e.status === 'stopped' && variantRoutes.get(`${route.index}~${e.id}~${fixedVariant(e.source)}`);
      if (winner && winner !== route) winners.set(route, winner);
    }
  }
  return {
    ...(winners.size ? { served: routes.map((r) => winners.get(r) ?? r) } : {}),
    list,
    ids: new Set(list.map((e) => e.id)),
    of: (route) => byRoute.get(route),
    variantRoute: (route, experiment, variant) => variantRoutes.get(`${route.index}~${experiment}~${variant}`),
  };
}
