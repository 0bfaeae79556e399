import { describe, expect, it } from 'vitest';
import { citiesOf, milesBetween, nearbyCities, type City } from '../../engine/geo/cities';

/** The plain way: every other city of the state by distance, then by slug. */
function reference(city: City, count: number) {
  return citiesOf(city.stateCode)
    .filter((c) => c.slug !== city.slug)
    .map((c) => ({ city: c, miles: milesBetween(city, c) }))
    .sort((a, b) => a.miles - b.miles || a.city.slug.localeCompare(b.city.slug))
    .slice(0, count);
}

const slugsAndMiles = (list: { city: City; miles: number }[]) => list.map((n) => `${n.city.slug} ${n.miles}`);

describe('nearby cities (the city pages\' "nearby" list)', () => {
  // small and large states, and one with cities far apart
  for (const state of ['ri', 'de', 'dc', 'ak', 'hi', 'tx'])
    it(`are the nearest of ${state.toUpperCase()}, nearest first, with the same miles as the haversine formula`, () => {
      const cities = citiesOf(state);
      expect(cities.length).toBeGreaterThan(0);
      const sample = cities.length > 400 ? cities.filter((_, i) => i % 7 === 0) : cities;
      for (const city of sample) expect(slugsAndMiles(nearbyCities(city, 6)), city.slug).toEqual(slugsAndMiles(reference(city, 6)));
    });

  it('never lists the city itself, and gives fewer when the state has fewer', () => {
    const dc = citiesOf('dc');
    for (const city of dc) {
      const near = nearbyCities(city, 6);
      expect(near.some((n) => n.city.slug === city.slug)).toBe(false);
      expect(near.length).toBe(Math.min(6, dc.length - 1));
    }
  });
});
