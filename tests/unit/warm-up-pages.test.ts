/**
 * The pages a production server renders at start (WARM_UP_PAGES, engine/frontDoor/warmUp.ts) are
 * meant to leave its first visitors' pages as cheap as later ones. A city page builds, once per
 * state, what every later page of that state reads (the state's cities sorted, their positions);
 * taking a city route's first pages in sitemap order warmed one state only, so the warm-up takes
 * a route's pages spread over its first parameter: one city of each state before a second one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../engine/site/catalog';
import { STATES } from '../../engine/geo/states';
import { routePaths } from '../../engine/site/seo/sitemap';
import { warmUpPages } from '../../engine/frontDoor/warmUp';
import type { Door } from '../../engine/frontDoor/frontDoor';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const acme = readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8');
const catalog = buildCatalog([{ file: 'brands/acme.json', text: acme }], [], BLOCK_SPECS);
const loaded = catalog.brands.get('acme')!;
const cityRoute = loaded.routes.find((r) => r.path === '/location/{stateCode}/{city}')!;
const door = { catalog, consoleHosts: new Set<string>(), trustForwardedHost: false, production: true, env: {}, demoLender: false } as unknown as Door;

const stateOf = (path: string) => /^\/location\/([a-z]{2})\//.exec(path)?.[1];

describe('the pages rendered at start', () => {
  it("a city route's first pages are one city of each state", () => {
    const first = [...warmUpPages(door, 2000)].map((p) => p.page.replace('/_brand/acme', '')).filter((p) => stateOf(p));
    expect(first.length).toBeGreaterThanOrEqual(STATES.length);
    expect(new Set(first.slice(0, STATES.length).map(stateOf)).size).toBe(STATES.length);
  });

  it('spread, a route lists the same pages as its sitemap, each once', () => {
    const inOrder = [...routePaths(loaded, cityRoute)];
    const spread = [...routePaths(loaded, cityRoute, undefined, { spread: true })];
    expect(spread).toHaveLength(inOrder.length);
    expect(new Set(spread)).toEqual(new Set(inOrder));
    // the sitemap's order is one state after the other
    expect(new Set(inOrder.slice(0, STATES.length).map(stateOf)).size).toBe(1);
  }, 60_000);
});
