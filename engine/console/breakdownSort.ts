/**
 * The overview's breakdown tables sort on the server (the console sends no script): a column
 * named in the query string (`sort`) and a direction (`dir`), validated against the columns the
 * table has; anything else keeps the query's own order (most visits first). Ties keep that order,
 * so a sort is stable and a page reads the same on every load.
 */
import type { BreakdownRow } from '../traffic/funnelQuery';

export const BREAKDOWN_COLUMNS = [
  ['key', 'Value'],
  ['visits', 'Visits'],
  ['applyViews', 'Apply views'],
  ['submitted', 'Submitted'],
  ['stored', 'Stored'],
  ['sold', 'Sold'],
  ['conversion', 'Visit → lead'],
  ['revenue', 'Revenue'],
] as const;
export type BreakdownColumn = (typeof BREAKDOWN_COLUMNS)[number][0];
export type SortDir = 'asc' | 'desc';
export interface BreakdownSort {
  column: BreakdownColumn;
  dir: SortDir;
}

/** The default: as the query returns them (visits, then stored leads, most first). */
export const DEFAULT_SORT: BreakdownSort = { column: 'visits', dir: 'desc' };

const COLUMNS = new Set<string>(BREAKDOWN_COLUMNS.map(([c]) => c));

export function sortOf(sort: string, dir: string): BreakdownSort {
  if (!COLUMNS.has(sort)) return DEFAULT_SORT;
  const column = sort as BreakdownColumn;
  return { column, dir: dir === 'asc' || dir === 'desc' ? dir : column === 'key' ? 'asc' : 'desc' };
}

function valueOf(r: BreakdownRow, column: BreakdownColumn): number | string {
  switch (column) {
    case 'key':
      return r.key.toLowerCase();
    case 'conversion':
      return r.visits ? r.stored / r.visits : -1;
    case 'revenue':
      return r.revenueCents;
    default:
      return r[column];
  }
}

export function sortBreakdown<T extends BreakdownRow>(rows: readonly T[], s: BreakdownSort): T[] {
  const sign = s.dir === 'asc' ? 1 : -1;
  return rows
    .map((r, i) => ({ r, i, v: valueOf(r, s.column) }))
    .sort((a, b) => (a.v < b.v ? -sign : a.v > b.v ? sign : a.i - b.i))
    .map((x) => x.r);
}
