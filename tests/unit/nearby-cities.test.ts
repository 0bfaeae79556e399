import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CITIES_FILE, citiesOf, milesBetween, NEARBY_DERIVED, nearbyCities, type CitiesFile, type City } from '../../engine/geo/cities';
import { STATES } from '../../engine/geo/states';

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

describe('the nearest cities derived at install (scripts/derive-data.ts)', () => {
  it('give every city of every state the list the search gives', () => {
    for (const { code } of STATES) {
      const cities = citiesOf(code);
      for (const city of cities) {
        const listed = slugsAndMiles(nearbyCities(city, NEARBY_DERIVED));
        // one more than the data lists is searched for; a state with fewer cities lists them all, so it is checked the plain way
        const searched = cities.length - 1 > NEARBY_DERIVED ? nearbyCities(city, NEARBY_DERIVED + 1).slice(0, NEARBY_DERIVED) : reference(city, NEARBY_DERIVED);
        expect(listed, `${city.slug}, ${code}`).toEqual(slugsAndMiles(searched));
      }
    }
  });

  /** nearbyCities of Rhode Island's cities with another cities.json in place of the derived one. */
  function withFile(edit: (file: CitiesFile) => void, run: () => void) {
    const file = JSON.parse(readFileSync(CITIES_FILE(), 'utf8')) as CitiesFile;
    edit(file);
    const root = mkdtempSync(join(tmpdir(), 'loansites-cities-'));
    mkdirSync(join(root, 'data/generated'), { recursive: true });
    writeFileSync(join(root, 'data/generated/cities.json'), JSON.stringify(file));
    const shared = Symbol.for('loansites.cities');
    const holder = globalThis as Record<symbol, unknown>;
    const cwd = vi.spyOn(process, 'cwd').mockReturnValue(root);
    delete holder[shared];
    try {
      run();
    } finally {
      cwd.mockRestore();
      delete holder[shared];
    }
  }

  it('are read from the data, not searched for on each page', () => {
    const stride = NEARBY_DERIVED;
    withFile(
      (file) => {
        // each city's list written farthest first: only a page that reads the table shows that order
        const table = file.nearby!.ri!;
        for (let i = 0; i < table.length; i += stride) table.splice(i, stride, ...table.slice(i, i + stride).reverse());
      },
      () => {
        const city = citiesOf('ri').find((c) => c.slug === 'providence')!;
        expect(slugsAndMiles(nearbyCities(city, NEARBY_DERIVED))).toEqual(slugsAndMiles(reference(city, NEARBY_DERIVED).reverse()));
      },
    );
  });

  it('are searched for when the data has none or a table that does not fit the state', () => {
    for (const edit of [
      (file: CitiesFile) => delete file.nearby,
      (file: CitiesFile) => file.nearby!.ri!.pop(),
      (file: CitiesFile) => (file.nearby!.ri![3] = citiesOf('ri').length),
      (file: CitiesFile) => (file.nearby!.ri![3] = 'x' as unknown as number),
    ])
      withFile(edit, () => {
        for (const city of citiesOf('ri')) expect(slugsAndMiles(nearbyCities(city, NEARBY_DERIVED))).toEqual(slugsAndMiles(reference(city, NEARBY_DERIVED)));
      });
  });
});
