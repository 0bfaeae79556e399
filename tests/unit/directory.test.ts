import { describe, expect, it } from 'vitest';
import { CITY_PAGE_SIZE, cityPage, cityPageCount, citiesStartingWith, letterGroupOf, LETTER_GROUPS, storesInGroup } from '../../engine/site/directory';
import { STORE_BRANDS } from '../../engine/browser/data/stores';
import {
  allCitiesByName,
  bySize,
  cityAnywhere,
  cityFromCityStateSlug,
  cityInState,
  cityStateSlug,
  citiesOf,
  compareText,
  distinctCitySlugs,
} from '../../engine/geo/cities';
import { STATES } from '../../engine/geo/states';

describe('store brands and letter groups', () => {
  it('files every store brand in exactly one group', () => {
    const filed = LETTER_GROUPS.flatMap((g) => storesInGroup(g).map((s) => s.slug));
    expect(filed.sort()).toEqual(STORE_BRANDS.map((s) => s.slug).sort());
  });
  it.each([
    ['Ace Cash Express', 'a'],
    ['Mariner Finance', 'm'],
    ['PAYOMATIC', 'nop'],
    ['TitleMax', 'tuv'],
    ['Red River Credit', 'qr'],
    ['1st Choice', 'other'],
    ['Ezy', 'ef'],
    ['Joe', 'ijk'],
  ])('%s → %s', (name, group) => {
    expect(letterGroupOf(name)).toBe(group);
  });
  it('maps store brands to SPEC loan types', () => {
    const of = (name: string) => STORE_BRANDS.find((s) => s.name === name)?.loanType;
    expect([of('Mariner Finance'), of('PAYOMATIC'), of('Red River Credit'), of('TitleMax'), of('Advance America')]).toEqual([
      'loans',
      'loans',
      'installment loans',
      'title loans',
      'payday loans',
    ]);
    expect(STORE_BRANDS).toHaveLength(11);
  });
});

describe('city slugs', () => {
  it('no two cities of a state share a slug, and every slug parses back to its city', () => {
    for (const state of STATES) {
      const cities = citiesOf(state.code);
      expect(new Set(cities.map((c) => c.slug)).size, state.name).toBe(cities.length);
      for (const city of cities) {
        expect(city.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(cityFromCityStateSlug(cityStateSlug(city))).toBe(city);
      }
    }
  });
  it('covers every state with real cities', () => {
    for (const state of STATES) expect(citiesOf(state.code).length, state.name).toBeGreaterThan(0);
    expect(allCitiesByName().length).toBeGreaterThan(25000);
  });
});

describe('letter pages', () => {
  it('split the cities of a letter into pages of CITY_PAGE_SIZE with nothing lost', () => {
    const all = citiesStartingWith('s');
    const count = cityPageCount('s');
    expect(count).toBe(Math.ceil(all.length / CITY_PAGE_SIZE));
    const joined = Array.from({ length: count }, (_, i) => cityPage('s', i + 1)).flat();
    expect(joined).toEqual(all);
    expect(cityPage('s', count + 1)).toEqual([]);
  });
});

describe('city order and look-ups', () => {
  const all = STATES.flatMap((s) => citiesOf(s.code));
  const sign = (n: number) => Math.sign(n);
  it.each([
    ['DeKalb', 'Dearborn'],
    ['De Kalb', 'Decatur'],
    ['St. Louis', 'St Louis'],
    ["O'Fallon", 'Oakland'],
    ['abc', 'ABC'],
    ['x-1', 'x1'],
    ['same', 'same'],
  ])('%s against %s: the order localeCompare gives', (a, b) => {
    expect(sign(compareText(a, b))).toBe(sign(a.localeCompare(b)));
    expect(sign(compareText(b, a))).toBe(sign(b.localeCompare(a)));
  });
  it('every city name and slug sorts as localeCompare sorts it', () => {
    for (const key of ['name', 'slug'] as const) {
      const values = all.map((c) => c[key]);
      expect([...values].sort(compareText)).toEqual([...values].sort((a, b) => a.localeCompare(b)));
    }
    expect(allCitiesByName().map(cityStateSlug)).toEqual(
      [...all].sort((a, b) => a.name.localeCompare(b.name) || a.stateCode.localeCompare(b.stateCode)).map(cityStateSlug),
    );
  });
  it('finds every city by state and slug, a slug alone as its largest city, and no other', () => {
    for (const c of all) expect(cityInState(c.stateCode.toUpperCase(), c.slug)).toBe(c);
    const largest = new Map<string, (typeof all)[number]>();
    for (const c of [...all].sort(bySize)) if (!largest.has(c.slug)) largest.set(c.slug, c);
    expect(distinctCitySlugs()).toEqual([...largest.keys()].sort());
    for (const [slug, c] of largest) expect(cityAnywhere(slug)).toBe(c);
    for (const slug of ['', 'zzzzzz', 'houston-tx', 'a']) expect(cityAnywhere(slug)).toBeUndefined();
    expect(cityInState('tx', 'austin')?.name).toBe('Austin');
    expect(cityInState('tx', 'boston')).toBeUndefined();
    expect(cityInState('zz', 'austin')).toBeUndefined();
  });
});
