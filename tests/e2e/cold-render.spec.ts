/**
 * A brand page's cache miss is rendered by server.mjs with Next's own renderer, without Next's
 * request pipeline (engine/http/coldPageRender.mjs). Two instances of the same build, one as we
 * run it and one with COLD_RENDER_DIRECT=0 (every miss through Next), get the same first requests
 * of pages of several brands and templates: every answer — status, bytes (plain and gzip), every
 * header but the framing ones — is the same, the first instance rendered them itself, and what it
 * stored is what Next then serves as its cache hit.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import type { Instance } from '../support/instances';
import { pageAnswer, startComparedPair } from '../support/comparedInstances';
import { PORT } from './helpers';

const ON_PORT = PORT + 77;
const OFF_PORT = PORT + 78;
/** Never requested before on either instance (the direct path learnt Next's render options from the 404 a server renders at start). */
const PAGES: [host: string, path: string, headers: Record<string, string>][] = [
  // not the payday brand's /payday-loans: its demo experiment gives a visitor without a cookie either variant
  ['cocoloan.localhost', '/payday-loans', {}],
  ['ipaydayloans.localhost', '/', {}],
  ['ipaydayloans.localhost', '/location/ca/los-angeles', { 'accept-encoding': 'gzip, deflate, br' }],
  ['ipaydayloans.localhost', '/location/tx/austin?gclid=abc', {}],
  ['ipaydayloans.localhost', '/apply', {}],
  ['usbadcreditloans.localhost', '/payday-loans/location/california', { 'accept-encoding': 'gzip' }],
  ['ustitleloans.localhost', '/title-loans', {}],
  ['cocoloan.localhost', '/', {}],
];

let on: Instance;
let off: Instance;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  [on, off] = await startComparedPair(ON_PORT, OFF_PORT, { COLD_RENDER_DIRECT: '0' });
});
test.afterAll(async () => {
  await Promise.all([on?.stop(), off?.stop()]);
});

const get = pageAnswer;
const stats = async (port: number) =>
  (await (await fetch(`http://127.0.0.1:${port}/__page-cache`)).json()) as { renderedDirect: number; stored: number; replayed: number };

test('a first render answered by our server is the one Next answers: same status, bytes and headers, gzip included; its cache hit too', async () => {
  test.setTimeout(180_000);
  for (const [host, path, headers] of PAGES) {
    const [a, b] = [await get(ON_PORT, host, path, headers), await get(OFF_PORT, host, path, headers)];
    const what = `first ${host}${path} ${JSON.stringify(headers)}`;
    expect([a.status, b.status], what).toEqual([200, 200]);
    expect(a.headers['x-nextjs-cache'], what).toBe('MISS');
    expect(a.headers, what).toEqual(b.headers);
    expect(a.body.equals(b.body), what).toBe(true);
  }
  // every page, the first one too, was rendered by our server
  expect((await stats(ON_PORT)).renderedDirect).toBe(PAGES.length);
  expect((await stats(OFF_PORT)).renderedDirect).toBe(0);
  for (const [host, path, headers] of PAGES) {
    const [a, b] = [await get(ON_PORT, host, path, headers), await get(OFF_PORT, host, path, headers)];
    const what = `again ${host}${path}`;
    expect(a.headers['x-nextjs-cache'], what).toBe('HIT');
    expect(a.headers, what).toEqual(b.headers);
    expect(a.body.equals(b.body), what).toBe(true);
  }
});

test('eight visitors asking for the same never-rendered page at once all get it, and it is rendered here once', async () => {
  const path = '/location/ny/buffalo';
  const before = await stats(ON_PORT);
  const answers = await Promise.all(Array.from({ length: 8 }, () => get(ON_PORT, 'ipaydayloans.localhost', path)));
  const reference = await get(OFF_PORT, 'ipaydayloans.localhost', path);
  for (const a of answers) {
    expect(a.status).toBe(200);
    expect(a.body.toString()).toBe(reference.body.toString());
  }
  expect((await stats(ON_PORT)).renderedDirect - before.renderedDirect).toBe(1);
});

test('what is not a brand page miss still reaches Next: a brand 404, a draft-mode cookie', async () => {
  const before = (await stats(ON_PORT)).renderedDirect;
  const [a, b] = [await get(ON_PORT, 'ipaydayloans.localhost', '/no-such-page'), await get(OFF_PORT, 'ipaydayloans.localhost', '/no-such-page')];
  expect([a.status, b.status]).toEqual([404, 404]);
  expect(a.body.toString()).toBe(b.body.toString());
  expect((await get(ON_PORT, 'ipaydayloans.localhost', '/location/ny/albany', { cookie: '__prerender_bypass=x' })).status).toBe(200);
  expect((await stats(ON_PORT)).renderedDirect).toBe(before);
});

/**
 * The payday brand's /payday-loans runs the demo experiment (brands/ipaydayloans.json): its page
 * is the visitor's variant, so no shared cache (a CDN in front) may keep it for the next visitor,
 * from the render that stores it to every replay of it; the brand's other pages, and the same
 * page of a brand without an experiment, stay shared as Next sends them.
 */
test('a page under a running experiment is private to its visitor, rendered, replayed, HEAD, gzip and its data; pages without one stay shared', async () => {
  const host = 'ipaydayloans.localhost';
  const EXPERIMENT = 'payday-hero-headline';
  const held = { cookie: `lsx=0123456789abcdef|${EXPERIMENT}:cash-before-payday` };
  const before = await stats(ON_PORT);
  const rendered = await get(ON_PORT, host, '/payday-loans', held);
  expect(rendered.headers['x-nextjs-cache']).toBe('MISS');
  expect((await stats(ON_PORT)).renderedDirect - before.renderedDirect, 'rendered by our server').toBe(1);
  // Next's cache hit (its head recorded), then answers from the replay
  const answers = { rendered, hit: await get(ON_PORT, host, '/payday-loans', held) };
  // the control's page too (rendered, then recorded), so that a first visit is replayed whichever variant it draws
  for (let i = 0; i < 2; i++) await get(ON_PORT, host, '/payday-loans', { cookie: `lsx=0123456789abcdef|${EXPERIMENT}:control` });
  const replayedBefore = (await stats(ON_PORT)).replayed;
  const replays = {
    replayed: await get(ON_PORT, host, '/payday-loans', held),
    gzip: await get(ON_PORT, host, '/payday-loans', { ...held, 'accept-encoding': 'gzip' }),
    head: await get(ON_PORT, host, '/payday-loans', held, 'HEAD'),
    // a first visit, assigned now: its cookie and whichever variant it drew
    assigned: await get(ON_PORT, host, '/payday-loans'),
  };
  expect((await stats(ON_PORT)).replayed - replayedBefore, 'answered from the replay').toBe(4);
  const buildId = readFileSync('.next/BUILD_ID', 'utf8').trim();
  const data = await get(ON_PORT, host, `/_next/data/${buildId}/payday-loans.json`, { ...held, 'x-nextjs-data': '1' });
  for (const [what, a] of Object.entries({ ...answers, ...replays, data })) {
    expect(a.status, what).toBe(200);
    expect(a.headers['cache-control'], what).toBe('private, no-cache');
    expect(a.headers['x-loansites-experiment'], what).toMatch(what === 'assigned' ? /^payday-hero-headline=/ : /^payday-hero-headline=cash-before-payday$/);
  }
  expect(replays.assigned.headers['set-cookie']).toMatch(/^lsx=[0-9a-f]{16}\|payday-hero-headline:/);
  expect(rendered.body.toString()).toContain('Cash Before Payday, Without the Runaround');

  // the same page of a brand without an experiment, and the experiment brand's other pages: as Next sends them, shared
  for (const [brandHost, path] of [
    ['cocoloan.localhost', '/payday-loans'],
    [host, '/'],
  ] as const) {
    for (const method of ['GET', 'GET', 'HEAD']) {
      const [a, b] = [await get(ON_PORT, brandHost, path, {}, method), await get(OFF_PORT, brandHost, path, {}, method)];
      const what = `${method} ${brandHost}${path}`;
      expect(a.headers['cache-control'], what).toMatch(/^s-maxage=[1-9]\d*, stale-while-revalidate=\d+$/);
      expect(a.headers['x-loansites-experiment'], what).toBeUndefined();
      expect(a.headers, what).toEqual(b.headers);
    }
  }
});
