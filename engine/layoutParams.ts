/**
 * Layout parameters: a layout shared by routes (often of several brands) whose pages differ in
 * a few strings writes {param.name} where they differ, and each route using it gives the values
 * in its "layoutParams". The route's layout is the shared one with those strings put in, before
 * anything else reads it, so a value may itself hold page placeholders ("Bad Credit
 * {loanType.name}", "/{loanType.slug}/location") that are filled like any other text.
 */
import type { Layout } from '../schemas/brand.types';
import { fillDeep, placeholdersIn } from './templates';

export type LayoutParams = Readonly<Record<string, string>>;

const PREFIX = 'param.';

/** The parameter names a layout uses ({param.cityPath} → "cityPath"), sorted. */
export function layoutParamNames(layout: Layout): string[] {
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

/** The layout a route shows: its {param.*} placeholders replaced by the route's values (the same layout without any). */
export function withLayoutParams(layout: Layout, params: LayoutParams | undefined): Layout {
  if (!params || !Object.keys(params).length) return layout;
  return fillDeep(layout, Object.fromEntries(Object.entries(params).map(([k, v]) => [PREFIX + k, v])));
}

export const isLayoutParam = (placeholder: string): boolean => placeholder.startsWith(PREFIX);
