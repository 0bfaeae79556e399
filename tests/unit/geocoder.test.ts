import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseGeocodeRequest, type ForwardRequest } from '../../engine/http/geocodeRequest';
import { forwardGeocode, reverseGeocode } from '../../engine/geo/geocoder/search';
import { geocodingHandler } from '../../engine/http/geocodeApi';
import { placePagePath } from '../../engine/site/placePage';
import { geocoderEndpoint } from '../../engine/geo/geocoder/endpoint';
import { getCatalog } from '../../engine/site/catalog';
import { createDelayedHide, createSearchDebouncer, documentAllowsGeolocation, suggestionKey } from '../../engine/browser/widgets/locationSearch';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const forward = (text: string, params = '') =>
  forwardGeocode(parseGeocodeRequest(`${encodeURIComponent(text)}.json`, new URLSearchParams(params)) as ForwardRequest);
const names = (text: string, params = '') => forward(text, params).features.map((f) => f.place_name);
const regionAt = (lon: number, lat: number) =>
  reverseGeocode({ kind: 'reverse', lon, lat, limit: 5, types: new Set(['region']) }).features[0]?.properties.short_code;

describe('embedded geocoder: forward search', () => {
  it('finds Houston, Texas first from "hous" (largest city), in the v5 shape', () => {
    const res = forward('hous');
    expect(res.type).toBe('FeatureCollection');
    const [first] = res.features;
    expect(first).toMatchObject({
      type: 'Feature',
      place_type: ['place'],
      text: 'Houston',
      place_name: 'Houston, Texas, United States',
      context: [
        { short_code: 'US-TX', text: 'Texas' },
        { short_code: 'us', text: 'United States' },
      ],
    });
    expect(first!.id).toMatch(/^place\.\d+$/);
    // [lon, lat] of Houston
    expect(first!.center[0]).toBeCloseTo(-95.4, 0);
    expect(first!.center[1]).toBeCloseTo(29.8, 0);
    expect(first!.geometry.coordinates).toEqual(first!.center);
  });

  it('lists Austin ZIP codes for "787", as postcode features in Austin, Texas', () => {
    const res = forward('787');
    expect(res.features.length).toBe(5);
    for (const f of res.features) {
      expect(f.id).toMatch(/^postcode\.787\d\d$/);
      expect(f.place_type).toEqual(['postcode']);
      expect(f.place_name).toMatch(/^Austin, Texas 787\d\d, United States$/);
      expect(f.context?.map((c) => c.id.split('.')[0])).toEqual(['place', 'region', 'country']);
      expect(f.context?.[0]?.text).toBe('Austin');
    }
  });

  it('finds the region for "texas" first, with its short code', () => {
    const [first] = forward('texas').features;
    expect(first).toMatchObject({
      id: 'region.48',
      place_type: ['region'],
      text: 'Texas',
      place_name: 'Texas, United States',
      properties: { short_code: 'US-TX' },
    });
  });

  it('offers New York, the state and the city, for "new y"', () => {
    expect(names('new y').slice(0, 2)).toEqual(['New York, United States', 'New York, New York, United States']);
  });

  it('reads a ZIP code in the District of Columbia', () => {
    const [first] = forward('20001').features;
    expect(first).toMatchObject({ id: 'postcode.20001', text: '20001', place_name: 'Washington, District of Columbia 20001, United States' });
    expect(first!.context).toEqual([
      expect.objectContaining({ text: 'Washington' }),
      expect.objectContaining({ short_code: 'US-DC', text: 'District of Columbia' }),
      expect.objectContaining({ short_code: 'us' }),
    ]);
  });

  it('reads address-level text down to its ZIP code and place', () => {
    expect(names('100 Congress Ave, Austin, TX 78701')).toEqual(['Austin, Texas 78701, United States', 'Austin, Texas, United States']);
    expect(names('Main St, Austin TX')).toEqual(['Austin, Texas, United States']);
    expect(names('St. Louis, MO')[0]).toBe('Saint Louis, Missouri, United States');
  });

  it('finds names written with an apostrophe, accent or hyphen as visitors type them', () => {
    expect(names("Coeur d'Alene", 'autocomplete=false')).toEqual(['Coeur D Alene, Idaho, United States']);
    expect(names('Coeur d\u2019Alene, ID')).toEqual(['Coeur D Alene, Idaho, United States']);
    expect(names("O'Fallon, MO")).toEqual(['O Fallon, Missouri, United States']);
    expect(names('O Fallon, MO')).toEqual(['O Fallon, Missouri, United States']);
    // the table writes this one without the apostrophe or a space
    expect(names("D'Iberville, MS")).toEqual(['Diberville, Mississippi, United States']);
    expect(names('Diberville', 'autocomplete=false')).toEqual(['Diberville, Mississippi, United States']);
    expect(names("Land O'Lakes, FL")[0]).toBe('Land O Lakes, Florida, United States');
    expect(names("Lee's Summit", 'autocomplete=false')[0]).toBe('Lees Summit, Missouri, United States');
    expect(names('Cañon City', 'autocomplete=false')).toEqual(['Canon City, Colorado, United States']);
    expect(names('Wilkes-Barre', 'autocomplete=false')).toEqual(['Wilkes Barre, Pennsylvania, United States']);
  });

  it('honours types, limit, country, proximity, autocomplete and language', () => {
    expect(forward('austin', 'types=postcode').features).toEqual([]);
    expect(forward('austin', 'limit=2').features).toHaveLength(2);
    expect(forward('austin', 'country=ca').features).toEqual([]);
    expect(names('springfield', 'proximity=-72.6,42.1')[0]).toBe('Springfield, Massachusetts, United States');
    expect(names('springfield', 'proximity=-93.3,37.2')[0]).toBe('Springfield, Missouri, United States');
    expect(forward('hous', 'autocomplete=false').features).toEqual([]);
    expect(forward('houston', 'autocomplete=false').features[0]?.text).toBe('Houston');
    expect(forward('austin', 'language=en').features[0]).toMatchObject({ language: 'en', text_en: 'Austin', place_name_en: 'Austin, Texas, United States' });
  });
});

describe('embedded geocoder: reverse to a state', () => {
  it.each([
    ['Austin', -97.74, 30.27, 'US-TX'],
    ['Los Angeles', -118.24, 34.05, 'US-CA'],
    ['Chicago', -87.63, 41.88, 'US-IL'],
    ['Miami', -80.19, 25.76, 'US-FL'],
    ['Denver', -104.99, 39.74, 'US-CO'],
    ['Seattle', -122.33, 47.61, 'US-WA'],
    ['Anchorage', -149.9, 61.22, 'US-AK'],
    ['Honolulu', -157.86, 21.31, 'US-HI'],
    ['Washington', -77.04, 38.9, 'US-DC'],
    ['Boston', -71.06, 42.36, 'US-MA'],
  ])('a point in %s is in %s', (_, lon, lat, code) => {
    expect(regionAt(lon, lat)).toBe(code);
  });

  it.each([
    ['Texarkana', [-94.06, 33.43, 'US-TX'], [-94.02, 33.43, 'US-AR']],
    ['Kansas City', [-94.63, 39.11, 'US-KS'], [-94.57, 39.1, 'US-MO']],
    ['the Potomac at Washington', [-77.03, 38.89, 'US-DC'], [-77.07, 38.88, 'US-VA']],
  ] as const)('each side of the border at %s', (_, a, b) => {
    expect(regionAt(a[0], a[1])).toBe(a[2]);
    expect(regionAt(b[0], b[1])).toBe(b[2]);
  });

  it('falls back to the nearest ZIP just off the coast, and finds nothing far from the US', () => {
    // Miami Beach, a few hundred metres out to sea: outside the simplified boundary.
    expect(regionAt(-80.118, 25.79)).toBe('US-FL');
    expect(regionAt(-0.12, 51.5)).toBeUndefined();
    expect(regionAt(-40, 30)).toBeUndefined();
  });

  it('answers postcode, place and region without types, most precise first', () => {
    const res = reverseGeocode({ kind: 'reverse', lon: -97.74, lat: 30.27, limit: 5 });
    expect(res.query).toEqual([-97.74, 30.27]);
    expect(res.features.map((f) => f.place_type[0])).toEqual(['postcode', 'place', 'region']);
    expect(res.features[1]!.place_name).toBe('Austin, Texas, United States');
  });
});

describe('GET /api/geocoding/v5/mapbox.places/{query}.json', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((req, res) => void geocodingHandler(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const get = (path: string, host = 'usbadcreditloans.localhost'): Promise<{ status: number; json: Record<string, unknown> }> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end();
    });
  const P = '/api/geocoding/v5/mapbox.places/';

  it('answers forward and reverse lookups, ignoring the access token and unknown parameters', async () => {
    const fwd = await get(`${P}Austin.json?access_token=pk.anything&fuzzyMatch=true&worldview=us`);
    expect(fwd.status).toBe(200);
    expect((fwd.json.features as { place_name: string }[])[0]!.place_name).toBe('Austin, Texas, United States');
    const rev = await get(`${P}-97.74%2C30.27.json?types=region&country=us`);
    expect((rev.json.features as { properties: { short_code: string } }[])[0]!.properties.short_code).toBe('US-TX');
  });

  it('refuses empty, blank and over-long text and bad parameters with a 400 and the reason', async () => {
    expect(await get(`${P}%20%20.json`)).toMatchObject({ status: 400, json: { error: 'The search text is empty' } });
    expect(await get(`${P}${'a'.repeat(257)}.json`)).toMatchObject({ status: 400, json: { error: 'The search text is longer than 256 characters' } });
    expect((await get(`${P}${'a'.repeat(256)}.json`)).status).toBe(200);
    expect(await get(`${P}austin.json?types=planet`)).toMatchObject({ status: 400, json: { error: expect.stringContaining('unknown: planet') } });
    expect((await get(`${P}austin.json?proximity=here`)).status).toBe(400);
    expect((await get(`${P}austin.json?limit=lots`)).status).toBe(400);
    expect((await get(`${P}200,100.json`)).status).toBe(400);
    expect((await get(`${P}%E0%A4%A.json`)).status).toBe(400);
    expect((await get(`${P}austin`)).status).toBe(404);
  });

  it('clamps limit to 1…8 (SPEC §9)', async () => {
    expect(((await get(`${P}spring.json?limit=50`)).json.features as unknown[]).length).toBe(8);
    expect(((await get(`${P}spring.json?limit=0`)).json.features as unknown[]).length).toBe(1);
  });

  it('answers on brand hosts only', async () => {
    expect((await get(`${P}austin.json`, 'example.com')).status).toBe(404);
  });
});

describe('search timings (SPEC §4, §5, §9)', () => {
  afterEach(() => vi.useRealTimers());

  it('sends the text 500 ms after the last keystroke, once', () => {
    vi.useFakeTimers();
    const settled = vi.fn();
    const d = createSearchDebouncer(settled);
    d.change('h');
    vi.advanceTimersByTime(300);
    d.change('hou');
    vi.advanceTimersByTime(499);
    expect(settled).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(settled).toHaveBeenCalledExactlyOnceWith('hou');
  });

  it('sends nothing for empty or whitespace-only text, and drops a pending search', () => {
    vi.useFakeTimers();
    const settled = vi.fn();
    const d = createSearchDebouncer(settled);
    d.change('aus');
    d.change('   ');
    vi.advanceTimersByTime(1000);
    expect(settled.mock.calls).toEqual([[undefined]]);
  });

  it('hides suggestions 500 ms after blur, unless focus comes back first', () => {
    vi.useFakeTimers();
    const hide = vi.fn();
    const h = createDelayedHide(hide);
    h.blur();
    vi.advanceTimersByTime(400);
    h.focus();
    vi.advanceTimersByTime(1000);
    expect(hide).not.toHaveBeenCalled();
    h.blur();
    vi.advanceTimersByTime(499);
    expect(hide).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(hide).toHaveBeenCalledOnce();
  });

  it('moves through suggestions with the arrows, chooses with Enter, closes with Escape', () => {
    expect(suggestionKey('ArrowDown', { active: -1, open: true }, 3)).toMatchObject({ active: 0, open: true, handled: true });
    expect(suggestionKey('ArrowDown', { active: 2, open: true }, 3)).toMatchObject({ active: 0 });
    expect(suggestionKey('ArrowUp', { active: 0, open: true }, 3)).toMatchObject({ active: 2 });
    expect(suggestionKey('Enter', { active: 1, open: true }, 3)).toMatchObject({ choose: 1, open: false, handled: true });
    expect(suggestionKey('Enter', { active: -1, open: true }, 3)).toMatchObject({ handled: false });
    expect(suggestionKey('Escape', { active: 1, open: true }, 3)).toMatchObject({ open: false, handled: true });
    expect(suggestionKey('Escape', { active: -1, open: false }, 3)).toMatchObject({ handled: false });
    expect(suggestionKey('ArrowDown', { active: -1, open: false }, 0)).toMatchObject({ handled: false });
  });
});

describe("a place → the brand's page for it", () => {
  const brand = (id: string) => getCatalog().brands.get(id)!;
  it.each([
    ['usbadcreditloans', 'title-loans', '/title-loans/location/austin', '/title-loans/location/texas'],
    ['usinstallmentloans', 'installment-loans', '/city/austin-tx', '/installment-loans/state/texas'],
    ['ustitleloans', 'title-loans', '/title-loans/austin', '/title-loans/texas'],
    ['ustitleloans', 'title-loans-near-me', '/title-loans-near-me/austin', '/title-loans-near-me/location/texas'],
    ['fasttitle', 'payday-loans-near-me', '/payday-loans-near-me/location/austin', '/payday-loans-near-me/location/texas'],
    ['ipaydayloans', 'payday-loans', '/location/tx/austin', '/location/tx'],
    ['onlineloans', 'personal-loans', '/personal-loans/city/austin-tx', '/personal-loans/state/texas'],
  ] as const)('%s (%s): the city page, else the state page', (id, loanType, cityPage, statePage) => {
    expect(placePagePath(brand(id), { state: 'tx', city: 'Austin', loanType })).toBe(cityPage);
    expect(placePagePath(brand(id), { state: 'tx', loanType })).toBe(statePage);
  });

  it('never opens a namesake: /{city} pages without a state are the largest city of that name', () => {
    // Portland, Oregon is the largest Portland: Portland, Maine gets the state page.
    expect(placePagePath(brand('usbadcreditloans'), { state: 'me', city: 'Portland', loanType: 'payday-loans' })).toBe('/payday-loans/location/maine');
    expect(placePagePath(brand('usbadcreditloans'), { state: 'or', city: 'Portland', loanType: 'payday-loans' })).toBe('/payday-loans/location/portland');
    expect(placePagePath(brand('usinstallmentloans'), { state: 'me', city: 'Portland' })).toBe('/city/portland-me');
  });

  it('reads geocoder names ("St. Louis") and falls back to the state for a city it does not know', () => {
    expect(placePagePath(brand('ustitleloans'), { state: 'mo', city: 'St. Louis', loanType: 'title-loans' })).toBe('/title-loans/saint-louis');
    expect(placePagePath(brand('ustitleloans'), { state: 'tx', city: 'Nowhere Springs', loanType: 'title-loans' })).toBe('/title-loans/texas');
  });

  it('opens the city page for Mapbox\'s apostrophe names ("Coeur d\'Alene", "O\'Fallon")', () => {
    expect(placePagePath(brand('ipaydayloans'), { state: 'id', city: "Coeur d'Alene" })).toBe('/location/id/coeur-d-alene');
    expect(placePagePath(brand('ipaydayloans'), { state: 'mo', city: 'O\u2019Fallon' })).toBe('/location/mo/o-fallon');
    expect(placePagePath(brand('ipaydayloans'), { state: 'co', city: 'Cañon City' })).toBe('/location/co/canon-city');
  });

  it('gives nothing for a brand without location pages or an unknown state', () => {
    expect(placePagePath(brand('honestloans'), { state: 'tx', city: 'Austin' })).toBeUndefined();
    expect(placePagePath(brand('ustitleloans'), { state: 'zz' })).toBeUndefined();
  });
});

describe('which geocoder the pages call', () => {
  it('is the embedded one unless GEOCODER=mapbox, then Mapbox (or MAPBOX_GEOCODING_URL) with the brand mapKey', () => {
    expect(geocoderEndpoint('pk.key', {})).toEqual({ base: '/api/geocoding/v5', accessToken: 'pk.key' });
    expect(geocoderEndpoint('pk.key', { GEOCODER: 'mapbox' })).toEqual({ base: 'https://api.mapbox.com/geocoding/v5', accessToken: 'pk.key' });
    expect(geocoderEndpoint('pk.key', { GEOCODER: 'mapbox', MAPBOX_GEOCODING_URL: 'http://127.0.0.1:9/geocoding/v5/' })).toEqual({
      base: 'http://127.0.0.1:9/geocoding/v5',
      accessToken: 'pk.key',
    });
  });
});

describe('pages that ask for the position (Permissions-Policy: geolocation=(self))', () => {
  // Every page of the brand, as the front door answers it on the brand's host.
  const allowing = async (brand: string) => {
    const { consoleHostsOf, decide, permissionsPolicy } = await import('../../engine/frontDoor/frontDoor');
    const { brandPaths } = await import('../../engine/site/seo/sitemap');
    const catalog = getCatalog();
    const door = { catalog, previewModeId: null, consoleHosts: consoleHostsOf({}), trustForwardedHost: false, production: true, env: {} };
    const paths = brandPaths(catalog.brands.get(brand)!);
    const allowed = paths.filter((target) =>
      permissionsPolicy(decide({ method: 'GET', target, host: `${brand}.localhost` }, door)).startsWith('geolocation=(self)'),
    );
    return { paths, allowed };
  };

  it.each([
    ['usbadcreditloans', /^\/[a-z-]+\/location\/search$/],
    ['ustitleloans', /^\/[a-z-]+\/search$/],
    ['ipaydayloans', /^\/search$/],
    ['honestloans', undefined],
  ] as const)(
    '%s: the search pages with "Use my location", not the others',
    async (brand, searchPage) => {
      const { paths, allowed } = await allowing(brand);
      const expected = searchPage ? paths.filter((p) => searchPage.test(p)) : [];
      if (searchPage) expect(expected.length).toBeGreaterThan(0);
      expect(allowed).toEqual(expected);
    },
    60_000,
  );

  it("whether the document may ask: the standard permissionsPolicy, else Chromium's featurePolicy, else (no policy in the page) yes", () => {
    const policy = (allowed: string[]) => ({ allowsFeature: (feature: string) => allowed.includes(feature) });
    // Chromium today, on a search page and on a page reached by a link from the home page
    expect(documentAllowsGeolocation({ featurePolicy: policy(['geolocation']) })).toBe(true);
    expect(documentAllowsGeolocation({ featurePolicy: policy([]) })).toBe(false);
    // a browser with only the standard interface: it is read, not taken as "no policy"
    expect(documentAllowsGeolocation({ permissionsPolicy: policy([]) })).toBe(false);
    expect(documentAllowsGeolocation({ permissionsPolicy: policy(['geolocation']) })).toBe(true);
    // both: the standard one decides
    expect(documentAllowsGeolocation({ permissionsPolicy: policy([]), featurePolicy: policy(['geolocation']) })).toBe(false);
    // neither (Firefox, Safari apply no Permissions-Policy header to a page), or something else under the name
    expect(documentAllowsGeolocation({})).toBe(true);
    expect(documentAllowsGeolocation({ permissionsPolicy: null, featurePolicy: {} })).toBe(true);
  });

  it('a search block without "Use my location" does not ask', async () => {
    const { pageUsesGeolocation } = await import('../../engine/site/geolocation');
    expect(pageUsesGeolocation({ blocks: [{ type: 'locationSearch', geolocation: false }] }, BLOCK_SPECS)).toBe(false);
  });
});
