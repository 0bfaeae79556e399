/**
 * A brand's experiments, checked beyond their schema: each covers routes the brand has (and no
 * route is in two), its variants' weights add up to 100, a winner names a variant, a bandit has
 * three or more variants, each with a weight above 0, and a rate to weigh them by, the end is
 * after the start, and every variant builds on every route it covers — its layout exists, its
 * parameters are the layout's, its texts name texts of the layout, its order names every block
 * once, and the page it gives passes the same checks as any page (links to real pages, known
 * placeholders, one hero first…). Each problem is reported at the experiment's own pointer.
 */
import type { Brand, Experiment, Layout } from '../../../schemas/brand.types';
import type { CompiledRoute } from '../routes';
import { timeOf } from '../experiments/assign';
import { applyVariant, variantProblems, variantRouteOf } from '../experiments/variants';
import { withLayoutParams } from '../layoutParams';
import type { FileProblem, LayoutSource } from './semantic';

/**
 * Whether a start or end names a real day or UTC time. Date.parse rolls an impossible one over
 * ("2026-02-30" is 2 March, "T24:00" the next day), so it must also read back as written: the
 * experiment would otherwise run from a day its document and the console do not show.
 */
function realTime(text: string): boolean {
  const t = timeOf(text);
  if (Number.isNaN(t)) return false;
  const iso = new Date(t).toISOString();
  return iso.slice(0, 10) === text.slice(0, 10) && (!text.includes('T') || iso.slice(11, 16) === text.slice(11, 16));
}

/**
 * @param layoutOf a layout of the brand's or a shared one, by name, with where it was written
 * @param pageProblems the checks a page of `layout` gets on `routes` (semantic.ts, as for every layout a route uses)
 */
export function checkExperiments(
  brand: Brand,
  file: string,
  compiled: readonly CompiledRoute[],
  layoutOf: (name: string) => LayoutSource | undefined,
  pageProblems: (source: LayoutSource, routes: readonly CompiledRoute[], params: CompiledRoute['layoutParams']) => FileProblem[],
): FileProblem[] {
  const problems: FileProblem[] = [];
  const add = (pointer: string, message: string) => problems.push({ file, pointer, message });
  const ids = new Set<string>();
  const covered = new Map<string, string>();
  (brand.experiments ?? []).forEach((e: Experiment, i) => {
    const at = `/experiments/${i}`;
    if (ids.has(e.id)) add(`${at}/id`, `another experiment is already "${e.id}"; each id appears once`);
    ids.add(e.id);
    const routes: CompiledRoute[] = [];
    e.routes.forEach((path, k) => {
      const route = compiled.find((r) => r.path === path);
      if (!route) return add(`${at}/routes/${k}`, `"${path}" is no route of this brand (write a route's path as its routes do, e.g. /payday-loans)`);
      const other = covered.get(path);
      if (other) return add(`${at}/routes/${k}`, `"${path}" is already in experiment "${other}"; a page is in one experiment at a time`);
      covered.set(path, e.id);
      routes.push(route);
    });
    const variantIds = new Set<string>();
    e.variants.forEach((v, j) => {
      if (variantIds.has(v.id)) add(`${at}/variants/${j}/id`, `another variant is already "${v.id}"; each id appears once`);
      variantIds.add(v.id);
    });
    const total = e.variants.reduce((s, v) => s + v.weight, 0);
    if (Math.abs(total - 100) > 1e-9) add(`${at}/variants`, `the variants' weights add up to ${total}, not 100`);
    if (e.winner !== undefined && !variantIds.has(e.winner))
      add(`${at}/winner`, `"${e.winner}" is none of this experiment's variants (${[...variantIds].join(', ')})`);
    if (e.winner !== undefined && e.status !== 'stopped')
      add(`${at}/winner`, 'a winner is for a stopped experiment: set "status": "stopped" too, or remove it');
    if (e.allocation === 'bandit' && e.variants.length < 3)
      add(
        `${at}/allocation`,
        `a bandit is for three or more variants; this experiment has ${e.variants.length}, so its written weights are what counts (remove "allocation")`,
      );
    // the bandit first sets weights once every variant has its burn-in at its written weight: a
    // variant written at 0 gets no visitors, so the bandit would never start
    if (e.allocation === 'bandit')
      e.variants.forEach((v, j) => {
        if (v.weight <= 0)
          add(
            `${at}/variants/${j}/weight`,
            `a bandit's variants each need a weight above 0: new visitors are shared by the written weights until every variant has its burn-in, which "${v.id}" would never reach`,
          );
      });
    if (e.allocation === 'bandit' && e.metric === 'revenuePerVisit')
      add(`${at}/metric`, 'a bandit weighs the variants by a rate (stored, submitted or sold per visit), not by revenue per visit');
    if (e.burnIn !== undefined && e.allocation !== 'bandit') add(`${at}/burnIn`, 'a burn-in is for a bandit: set "allocation": "bandit" too, or remove it');
    if (!realTime(e.start)) add(`${at}/start`, `"${e.start}" is not a real day or time`);
    if (e.end !== undefined && !realTime(e.end)) add(`${at}/end`, `"${e.end}" is not a real day or time`);
    else if (e.end !== undefined && timeOf(e.end) <= timeOf(e.start)) add(`${at}/end`, 'the end must come after the start');

    e.variants.forEach((v, j) => {
      const vat = `${at}/variants/${j}`;
      for (const route of routes) {
        const vr = variantRouteOf(route, v);
        const source = layoutOf(vr.layout);
        if (!source) {
          add(`${vat}/layout`, `no layout named "${vr.layout}" (this brand's: ${Object.keys(brand.layouts ?? {}).join(', ') || 'none'}, or a shared one)`);
          return;
        }
        const filled: Layout = withLayoutParams(source.layout, vr.layoutParams);
        const own = variantProblems(filled, v);
        for (const p of own) add(vat + p.pointer, `${p.message} (route "${route.path}")`);
        if (own.length) return;
        // texts and order apply to the filled layout: it is checked as filled, with no parameters left to give
        const reworked = v.texts !== undefined || v.order !== undefined;
        const built = { ...source, layout: reworked ? applyVariant(filled, v) : source.layout };
        const params = reworked ? undefined : vr.layoutParams;
        const found = pageProblems(built, [{ ...route, layout: vr.layout, layoutParams: params }], params);
        const first = found[0];
        if (first)
          add(
            vat,
            `variant "${v.id}" does not build on route "${route.path}": ${first.message} (${first.file} ${first.pointer || '/'})${found.length > 1 ? ` and ${found.length - 1} more` : ''}`,
          );
      }
    });
  });
  return problems;
}
