/**
 * An experiment's variants as pages: what a variant changes of a covered route's layout (another
 * layout, layout parameters over the route's, texts replaced by pointer, the blocks reordered),
 * and the route a variant's page is rendered from. Pure; the catalog compiles every variant of
 * every covered route once (engine/site/catalog.ts), the brand checks build each one to refuse
 * a variant that does not (engine/site/brandChecks/experiments.ts).
 *
 * A variant that changes nothing is the route's own page, at the route's own internal path and
 * cache entry; any other variant is a page of its own, at /_brand/{brand}/_v~{experiment}~{variant}{path}:
 * its own cache entry, replayed like any page. No route starts with "_", so that path names no
 * ordinary page.
 */
import type { Experiment, ExperimentVariant, Layout } from '../../../schemas/brand.types';
import { decodePointer } from '../../validate/locate';
import type { LayoutParams } from '../layoutParams';

/** The first segment of a variant's internal path. */
export const VARIANT_SEGMENT = '_v~';

/** Whether a variant changes anything of the page its route shows. */
export const changesPage = (v: ExperimentVariant): boolean =>
  v.layout !== undefined || v.layoutParams !== undefined || v.texts !== undefined || v.order !== undefined;

/** The path a variant's page is rendered at, inside its brand's internal prefix ("" for a variant that changes nothing). */
export const variantSegment = (experiment: string, variant: string): string => `/${VARIANT_SEGMENT}${experiment}~${variant}`;

/** A page path's variant segment read back (getStaticProps): the experiment, the variant and the page path. */
export function readVariantPath(path: string): { experiment: string; variant: string; path: string } | undefined {
  const m = /^\/_v~([a-z0-9-]{1,40})~([a-z0-9-]{1,40})(\/.*)?$/.exec(path);
  return m ? { experiment: m[1]!, variant: m[2]!, path: m[3] ?? '/' } : undefined;
}

/** The layout name and parameters a variant shows on a route with these. */
export function variantRouteOf(
  route: { layout: string; layoutParams?: LayoutParams | undefined },
  v: ExperimentVariant,
): { layout: string; layoutParams?: LayoutParams } {
  const params = v.layoutParams ? { ...route.layoutParams, ...v.layoutParams } : route.layoutParams;
  return { layout: v.layout ?? route.layout, ...(params ? { layoutParams: params } : {}) };
}

/** Why a variant's texts or order cannot apply to a layout, with the pointer under the variant; empty when they can. */
export function variantProblems(layout: Layout, v: ExperimentVariant): { pointer: string; message: string }[] {
  const problems: { pointer: string; message: string }[] = [];
  for (const pointer of Object.keys(v.texts ?? {})) {
    const at = textAt(layout, pointer);
    if (at === undefined)
      problems.push({
        pointer: `/texts/${pointer.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        message: `"${pointer}" names no text of the layout this page shows`,
      });
  }
  if (v.order) {
    const n = layout.blocks.length;
    const sorted = [...v.order].sort((a, b) => a - b);
    if (sorted.length !== n || sorted.some((x, i) => x !== i))
      problems.push({ pointer: '/order', message: `the order must name each of the layout's ${n} blocks once (0 to ${n - 1})` });
    else if (v.order[0] !== 0) problems.push({ pointer: '/order/0', message: 'the first block stays first: it is the page’s hero' });
  }
  return problems;
}

/** The string a pointer names in a layout, or undefined. */
function textAt(layout: Layout, pointer: string): string | undefined {
  let at: unknown = layout;
  for (const key of decodePointer(pointer)) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === 'string' ? at : undefined;
}

/** A layout with a variant's texts put in and its blocks in the variant's order (the layout as it was when it has neither). */
export function applyVariant(layout: Layout, v: ExperimentVariant): Layout {
  if (!v.texts && !v.order) return layout;
  const copy = structuredClone(layout) as Layout;
  for (const [pointer, text] of Object.entries(v.texts ?? {})) {
    const keys = decodePointer(pointer);
    const last = keys.pop()!;
    let at: unknown = copy;
    for (const key of keys) at = (at as Record<string, unknown>)[key];
    if (at && typeof at === 'object' && typeof (at as Record<string, unknown>)[last] === 'string') (at as Record<string, unknown>)[last] = text;
  }
  if (v.order && v.order.length === copy.blocks.length) copy.blocks = v.order.map((i) => copy.blocks[i]!) as Layout['blocks'];
  return copy;
}

/** The variant everyone sees when the experiment does not assign: the winner once stopped, else the control. */
export function fixedVariant(e: Pick<Experiment, 'status' | 'winner' | 'variants'>): string {
  return (e.status === 'stopped' && e.winner) || e.variants[0].id;
}
