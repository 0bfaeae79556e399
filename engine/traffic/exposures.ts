/**
 * Which experiments a batch of funnel events exposes its visit to: a page view of a page under a
 * running experiment, by a visitor whose experiments' cookie holds their variant of it (the page
 * they were served, engine/frontDoor/experiment.ts). Counted once per visit and experiment (the
 * store keeps the first). A visitor who opted out of sale and sharing is counted like any
 * other: the exposure, like the visit, stays first-party and is shared with no one.
 */
import type { LoadedBrand } from '../site/catalog';
import { matchPath } from '../site/pageMatch';
import { readAssignments, servingOf } from '../site/experiments/assign';
import type { ExposureInput } from '../store/experiments';

export function exposuresOf(
  events: readonly { type: string; path: string }[],
  ctx: { visitId: string; loaded: LoadedBrand | undefined; cookie: string | undefined; now: Date },
): ExposureInput[] {
  const { loaded } = ctx;
  if (!loaded?.experiments.list.length) return [];
  const mine = readAssignments(ctx.cookie);
  if (!mine) return [];
  const found = new Map<string, ExposureInput>();
  for (const e of events) {
    if (e.type !== 'page_view') continue;
    const match = matchPath(loaded, e.path);
    const experiment = match && loaded.experiments.of(match.route);
    if (!experiment || found.has(experiment.id)) continue;
    const serving = servingOf(experiment, mine.chosen.get(experiment.id), mine.visitor, ctx.now.getTime());
    // only a variant the cookie holds is one the visitor was served (one assigned now was not)
    if (!serving.counted || serving.assigned) continue;
    found.set(experiment.id, {
      visitId: ctx.visitId,
      brand: loaded.brand.id,
      experiment: experiment.id,
      variant: serving.variant,
      createdAt: ctx.now.toISOString(),
    });
  }
  return [...found.values()];
}
