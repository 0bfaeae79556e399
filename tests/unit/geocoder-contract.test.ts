/**
 * Contract: the blocks' geocoding client (engine/browser/geocoder/client.ts) gets what the UI needs —
 * place names with their city and state, address suggestions (label, postcode, city, state),
 * the region of a point — from the embedded geocoder and from Mapbox alike. Mapbox is a local
 * server answering recorded v5 responses (tests/fixtures/mapbox-v5) at its own path.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addressSearchUrl,
  fetchAddressSuggestions,
  fetchPlaces,
  locateRegion,
  placeSearchUrl,
  type GeocoderEndpoint,
} from '../../engine/browser/geocoder/client';

// What the blocks do: the search panel and the autocomplete fetch the URL the client builds.
const searchPlaces = (ep: GeocoderEndpoint, text: string) => fetchPlaces(placeSearchUrl(ep, text));
const suggestAddresses = (ep: GeocoderEndpoint, text: string) => fetchAddressSuggestions(addressSearchUrl(ep, text));
import { geocodingHandler } from '../../engine/http/geocodeApi';

const fixture = (name: string) => readFileSync(`tests/fixtures/mapbox-v5/${name}.json`, 'utf8');
const RECORDED: Record<string, string> = {
  'austin.json': fixture('forward-austin'),
  '78701.json': fixture('autocomplete-78701'),
  '-97.74,30.27.json': fixture('reverse-region-austin'),
};

const servers: Server[] = [];
const seen: URL[] = [];
async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

const providers: Record<string, GeocoderEndpoint> = {};
beforeAll(async () => {
  const mapbox = await listen((req, res) => {
    const url = new URL(req.url!, 'http://mapbox.test');
    seen.push(url);
    const body = RECORDED[decodeURIComponent(url.pathname.replace('/geocoding/v5/mapbox.places/', ''))];
    if (url.searchParams.get('access_token') !== 'pk.brand-token') {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Not Authorized - Invalid Token"}');
    } else if (!body) res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    else res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  const embedded = await listen((req, res) => {
    req.headers.host = 'usbadcreditloans.localhost';
    void geocodingHandler(req, res);
  });
  providers.mapbox = { base: `http://127.0.0.1:${mapbox}/geocoding/v5`, accessToken: 'pk.brand-token' };
  providers.embedded = { base: `http://127.0.0.1:${embedded}/api/geocoding/v5`, accessToken: 'pk.brand-token' };
});
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

describe.each(['embedded', 'mapbox'])('the %s geocoder gives the UI what it needs', (name) => {
  const ep = () => providers[name]!;

  it('place search: place names, each with the city and state its page needs', async () => {
    const results = await searchPlaces(ep(), 'austin');
    expect(results[0]).toMatchObject({ place_name: 'Austin, Texas, United States', city: 'Austin', state: 'tx' });
    expect(results.every((r) => typeof r.place_name === 'string' && r.place_name.length > 0)).toBe(true);
  });

  it('address autocomplete: label "postcode, city, ST", postcode, city and state', async () => {
    const [first] = (await suggestAddresses(ep(), '78701'))!;
    expect(first).toMatchObject({ label: '78701, Austin, TX', postcode: '78701', city: 'Austin', state: 'TX' });
  });

  it('reverse geocoding: the region of a point as shortCode and lower-case state', async () => {
    expect(await locateRegion(ep(), -97.74, 30.27)).toEqual({ shortCode: 'US-TX', shortLowerState: 'tx', longitude: -97.74, latitude: 30.27 });
  });

  it('a failed lookup rejects (reverse, place search) or gives no suggestions, logged (autocomplete)', async () => {
    const broken = {
      ...ep(),
      accessToken: name === 'mapbox' ? 'pk.wrong' : ep().accessToken,
      base: name === 'mapbox' ? ep().base : ep().base.replace('/api/', '/nope/'),
    };
    await expect(locateRegion(broken, -97.74, 30.27)).rejects.toMatchObject({ status: expect.any(Number) });
    await expect(searchPlaces(broken, 'austin')).rejects.toThrow(/Geocoding answered 4\d\d/);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await suggestAddresses(broken, '78701')).toEqual([]);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});

describe('what the client sends (SPEC §7)', () => {
  it('autocomplete: country us, limit 8, proximity ip, postcode/address/place, English, autocomplete, the token', async () => {
    seen.length = 0;
    await suggestAddresses(providers.mapbox!, '78701');
    expect(Object.fromEntries(seen[0]!.searchParams)).toEqual({
      country: 'us',
      limit: '8',
      proximity: 'ip',
      types: 'postcode,address,place',
      language: 'en',
      autocomplete: 'true',
      access_token: 'pk.brand-token',
    });
  });

  it('reverse: the token, country us, types region; place search: the token only', async () => {
    seen.length = 0;
    await locateRegion(providers.mapbox!, -97.74, 30.27);
    await searchPlaces(providers.mapbox!, 'austin');
    expect(seen.map((u) => [u.pathname, Object.fromEntries(u.searchParams)])).toEqual([
      ['/geocoding/v5/mapbox.places/-97.74,30.27.json', { access_token: 'pk.brand-token', country: 'us', types: 'region' }],
      ['/geocoding/v5/mapbox.places/austin.json', { access_token: 'pk.brand-token' }],
    ]);
  });
});
