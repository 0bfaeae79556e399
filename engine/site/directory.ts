/**
 * Letter groups of the store directory (SPEC §2: a, b, c, d, ef, g, h, ijk, l, m, nop, qr,
 * s, tuv, wxyz, other), the store brands, and the nationwide city index by first letter
 * with its pagination.
 */
import { STORE_BRANDS, type StoreBrand } from '../browser/data/stores';
import { allCitiesByName, type City } from '../geo/cities';
import { NEAR_ME_PREFIX } from './loanTypes';

export const LETTER_GROUPS = ['a', 'b', 'c', 'd', 'ef', 'g', 'h', 'ijk', 'l', 'm', 'nop', 'qr', 's', 'tuv', 'wxyz', 'other'] as const;
export type LetterGroup = (typeof LETTER_GROUPS)[number];

export const letterGroupLabel = (group: string): string => (group === 'other' ? 'Other' : group.toUpperCase().split('').join(', '));

/** The group a name is filed under: its first letter's group, or other for digits and symbols. */
export function letterGroupOf(name: string): LetterGroup {
  const first = name.trim().charAt(0).toLowerCase();
  return LETTER_GROUPS.find((g) => g !== 'other' && g.includes(first)) ?? 'other';
}

export const storesInGroup = (group: string): StoreBrand[] => STORE_BRANDS.filter((s) => letterGroupOf(s.name) === group);
export const storeBySlug = (slug: string): StoreBrand | undefined => STORE_BRANDS.find((s) => s.slug === slug);
/** The near-me page of a store's loan type (SPEC §3 near-me mapping). */
export const storeNearMePath = (store: StoreBrand): string => `/${NEAR_ME_PREFIX[store.loanType]}`;

/** Cities per page on letter index pages. */
export const CITY_PAGE_SIZE = 120;

/** The city index by first letter, built once: sitemaps and letter pages ask for it per path. */
let byLetter: Map<string, City[]> | undefined;
export function citiesStartingWith(letter: string): readonly City[] {
  if (!byLetter) {
    byLetter = new Map();
    for (const c of allCitiesByName()) {
      const first = c.name.charAt(0).toLowerCase();
      const list = byLetter.get(first);
      if (list) list.push(c);
      else byLetter.set(first, [c]);
    }
  }
  return byLetter.get(letter) ?? [];
}

export const cityPageCount = (letter: string): number => Math.max(1, Math.ceil(citiesStartingWith(letter).length / CITY_PAGE_SIZE));

export function cityPage(letter: string, page: number): readonly City[] {
  const start = (page - 1) * CITY_PAGE_SIZE;
  return citiesStartingWith(letter).slice(start, start + CITY_PAGE_SIZE);
}
