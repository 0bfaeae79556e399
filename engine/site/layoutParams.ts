/**
 * Layout parameters: a layout shared by routes (often of several brands) whose pages differ in
 * a few strings writes {param.name} where they differ, and each route using it gives the values
 * in its "layoutParams". Pages that differ in whether a block is there at all share it too: the
 * block says "when": "<switch>", and shows only on the pages of routes that give that switch as
 * true (a switch left out is off). The route's layout is the shared one with its blocks chosen
 * and its strings put in, before anything else reads it, so a value may itself hold page
 * placeholders ("Bad Credit {loanType.name}", "/{loanType.slug}/location") that are filled like
 * any other text.
 */
import type { Layout } from '../../schemas/brand.types';
import { fillDeep, placeholdersIn } from './templates';

export type LayoutParams = Readonly<Record<string, string | boolean>>;

const PREFIX = 'param.';

/** The text parameter names a layout (or a part of one) writes ({param.cityPath} → "cityPath"), sorted. */
export function layoutParamNames(layout: unknown): string[] {
  const names = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const p of placeholdersIn(value)) if (p.startsWith(PREFIX)) names.add(p.slice(PREFIX.length));
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(layout);
  return [...names].sort();
}

/** The switches a layout's blocks show with ("when": "keepReading" → "keepReading"), sorted. */
export function layoutSwitchNames(layout: Layout): string[] {
  return [...new Set(layout.blocks.flatMap((b) => (b.when ? [b.when] : [])))].sort();
}

/** Whether a block shows on the pages of a route with these parameters: it has no "when", or the route switches it on. */
export const blockShows = (block: { when?: string }, params: LayoutParams | undefined): boolean => !block.when || params?.[block.when] === true;

/** The index in the layout of each block a route with these parameters shows, in order. */
export function shownBlockIndexes(layout: Layout, params: LayoutParams | undefined): number[] {
  return layout.blocks.flatMap((b, i) => (blockShows(b, params) ? [i] : []));
}

/**
 * The layout a route shows: the blocks it switches on (the others left out, "when" dropped) and
 * its {param.*} placeholders replaced by its text values (the same layout when there is neither).
 */
export function withLayoutParams(layout: Layout, params: LayoutParams | undefined): Layout {
  const switched = layout.blocks.some((b) => b.when);
  const texts = Object.entries(params ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string');
  if (!switched && !texts.length) return layout;
  const blocks = switched
    ? layout.blocks.filter((b) => blockShows(b, params)).map(({ when: _when, ...block }) => block as Layout['blocks'][number])
    : layout.blocks;
  const chosen = { ...layout, blocks } as Layout;
  return texts.length ? fillDeep(chosen, Object.fromEntries(texts.map(([k, v]) => [PREFIX + k, v]))) : chosen;
}

export const isLayoutParam = (placeholder: string): boolean => placeholder.startsWith(PREFIX);
