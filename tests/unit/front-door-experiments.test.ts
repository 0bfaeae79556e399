/**
 * The front door's decision for pages under an experiment (engine/frontDoor/experiment.ts), for
 * the real brand files (the payday brand's /payday-loans hero-headline experiment) and for the
 * same brand with its experiment stopped: the variant is named, sticky by the cookie, the
 * internal URL is the variant's own cached page, and a cookie for an experiment that no longer
 * exists is dropped.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources, type Catalog } from '../../engine/site/catalog';
import { decide, type Decision, type Door } from '../../engine/frontDoor/frontDoor';
import { countingIds, experimentDoor, EXPERIMENT_NOW } from '../support/experimentDoor';
import { rememberingPages } from '../../engine/frontDoor/server';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { variantPathsOf } from '../../engine/site/experiments/pages';

const sources = readSources({ extraDir: '' });
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
const IPAYDAY = 'ipaydayloans.localhost';
const EXPERIMENT = 'payday-hero-headline';
const CONTROL_URL = '/_brand/ipaydayloans/payday-loans';
const VARIANT_URL = `/_brand/ipaydayloans/_v~${EXPERIMENT}~cash-before-payday/payday-loans`;

/** The payday brand with its experiment changed (its file's text edited). */
function catalogWith(edit: (text: string) => string): Catalog {
  const brands = sources.brands.map((s) => (s.file === 'brands/ipaydayloans.json' ? { ...s, text: edit(s.text) } : s));
  const built = buildCatalog(brands, sources.layouts, BLOCK_SPECS);
  expect(built.problems).toEqual([]);
  return built;
}

const ids = countingIds();
const doorOf = (c: Catalog, now = EXPERIMENT_NOW): Door => experimentDoor(c, ids, now);
const door = doorOf(catalog);
const on = (target: string, cookie?: string, d = door): Decision => decide({ method: 'GET', target, host: IPAYDAY, cookie }, d);
const cookieOf = (d: Decision) => (d.kind === 'page' || d.kind === 'next' ? d.experiment?.setCookie?.split(';')[0] : undefined);

describe('a page under an experiment', () => {
  it('assigns a visitor without the cookie a variant, names it, and sets the cookie that keeps it', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const d = on('/payday-loans');
      expect(d).toMatchObject({ kind: 'page', experiment: { id: EXPERIMENT, counted: true } });
      if (d.kind !== 'page' || !d.experiment) throw new Error('no variant');
      seen.add(d.experiment.variant);
      expect(d.url).toBe(d.experiment.variant === 'control' ? CONTROL_URL : VARIANT_URL);
      expect(d.experiment.setCookie).toMatch(
        /^lsx=[0-9a-f]{16}\|payday-hero-headline:(control|cash-before-payday); Path=\/; Max-Age=31536000; SameSite=Lax; HttpOnly$/,
      );
      // private: the page is this visitor's assignment (engine/frontDoor/experiment.ts VARIANT_CACHE_CONTROL)
      expect(d.experiment.headers).toEqual([
        'X-Loansites-Experiment',
        `${EXPERIMENT}=${d.experiment.variant}`,
        'Cache-Control',
        'private, no-cache',
        'Set-Cookie',
        d.experiment.setCookie,
      ]);
    }
    expect([...seen].sort()).toEqual(['cash-before-payday', 'control']);
  });

  it('serves a visitor with the cookie their variant again, without setting it again', () => {
    const first = on('/payday-loans');
    const cookie = cookieOf(first)!;
    const again = on('/payday-loans', `other=1; ${cookie}`);
    expect(again).toMatchObject({
      kind: 'page',
      url: (first as { url: string }).url,
      experiment: { variant: (first as { experiment: { variant: string } }).experiment.variant },
    });
    expect(cookieOf(again)).toBeUndefined();
    // the server remembers the route: each variant is then one object (the replay keys its work by it)
    const remembering = rememberingPages();
    const facts = { method: 'GET', target: '/payday-loans', host: IPAYDAY, cookie };
    expect(remembering(facts, door)).toBe(remembering({ ...facts, cookie: `a=b; ${cookie}` }, door));
    expect(remembering(facts, door)).toEqual(again);
  });

  it('keeps the page itself: the visitor’s URL, the query and the page the replay looks up are the variant’s', () => {
    const d = on('/payday-loans?utm_source=x', `lsx=${'1'.repeat(16)}|${EXPERIMENT}:cash-before-payday`);
    expect(d).toMatchObject({
      kind: 'page',
      url: `${VARIANT_URL}?utm_source=x`,
      page: VARIANT_URL,
      experiment: { variant: 'cash-before-payday', counted: true },
    });
    expect(on('/payday-loans', `lsx=${'1'.repeat(16)}|${EXPERIMENT}:control`)).toMatchObject({ url: CONTROL_URL, page: CONTROL_URL });
  });

  it('gives the client router’s data request for the page the visitor’s variant’s data', () => {
    const d = on('/_next/data/b1/_brand/_/payday-loans.json', `lsx=${'1'.repeat(16)}|${EXPERIMENT}:cash-before-payday`);
    expect(d).toMatchObject({ kind: 'next', url: `/_next/data/b1${VARIANT_URL}.json`, experiment: { variant: 'cash-before-payday' } });
    expect(on('/_next/data/b1/_brand/_/payday-loans.json', `lsx=${'1'.repeat(16)}|${EXPERIMENT}:control`)).toMatchObject({
      kind: 'next',
      url: '/_next/data/b1/_brand/ipaydayloans/payday-loans.json',
    });
  });

  it('gives a data request naming the brand outright (Next’s router going back to the visit’s first page) the visitor’s variant now, not the one its path names', () => {
    const named = `/_next/data/b1${VARIANT_URL}.json`;
    const plain = '/_next/data/b1/_brand/ipaydayloans/payday-loans.json';
    const cookie = (variant: string) => `lsx=${'6'.repeat(16)}|${EXPERIMENT}:${variant}`;
    expect(on(named, cookie('cash-before-payday'))).toMatchObject({ kind: 'next', url: named, experiment: { variant: 'cash-before-payday', counted: true } });
    expect(on(named, cookie('control'))).toMatchObject({ kind: 'next', url: plain, experiment: { variant: 'control', counted: true } });
    expect(on(plain, cookie('cash-before-payday'))).toMatchObject({ kind: 'next', url: named, experiment: { variant: 'cash-before-payday' } });
    // the query is kept
    expect(on(`${named}?source1=x`, cookie('control'))).toMatchObject({ kind: 'next', url: `${plain}?source1=x` });
    // paused: the control for everyone; stopped: the winner at the page's own path, with no experiment work
    const paused = doorOf(catalogWith((t) => t.replace('"status": "running"', '"status": "paused"')));
    // (the same page for everyone: nothing of the visitor's in its head, which shared caches may keep as any page's)
    expect(on(named, cookie('cash-before-payday'), paused)).toMatchObject({
      kind: 'next',
      url: plain,
      experiment: { variant: 'control', counted: false, headers: [] },
    });
    const stopped = doorOf(catalogWith((t) => t.replace('"status": "running"', '"status": "stopped"')));
    const d = on(named, cookie('cash-before-payday'), stopped);
    expect(d).toEqual({ kind: 'next', url: plain });
  });

  it('assigns anew on a cookie for an experiment that no longer exists, and drops it from the cookie', () => {
    const d = on('/payday-loans', `lsx=${'2'.repeat(16)}|retired-test:b`);
    expect(d).toMatchObject({ kind: 'page', experiment: { id: EXPERIMENT } });
    expect(cookieOf(d)).toMatch(new RegExp(`^lsx=${'2'.repeat(16)}\\|${EXPERIMENT}:(control|cash-before-payday)$`));
    // on a page no experiment covers, that cookie changes nothing
    const other = on('/installment-loans', `lsx=${'2'.repeat(16)}|retired-test:b`);
    expect(other).toMatchObject({ kind: 'page', url: '/_brand/ipaydayloans/installment-loans' });
    expect(other).not.toHaveProperty('experiment');
  });

  it('assigns anew on a cookie naming no variant of the experiment, keeping the visitor’s id and their other experiments’ variants', () => {
    // a second experiment, on another page, whose variant the visitor holds
    const second = `{ "id": "installment-hero", "routes": ["/installment-loans"], "variants": [{ "id": "control", "weight": 50 }, { "id": "plain", "weight": 50, "order": [0, 2, 1, 3, 4, 5, 6, 7] }], "start": "2026-11-01", "status": "running" }`;
    const two = catalogWith((t) => t.replace('"experiments": [', `"experiments": [${second},`));
    const d2 = doorOf(two);
    const visitor = '5'.repeat(16);
    for (const stale of ['retired-variant', 'CONTROL', '', 'plain']) {
      const d = on('/payday-loans', `lsx=${visitor}|installment-hero:plain|${EXPERIMENT}:${stale}`, d2);
      expect(d).toMatchObject({ kind: 'page', experiment: { id: EXPERIMENT, counted: true } });
      expect(cookieOf(d)).toMatch(new RegExp(`^lsx=${visitor}\\|installment-hero:plain\\|${EXPERIMENT}:(control|cash-before-payday)$`));
    }
  });

  it('does not look at the user agent: a crawler without the cookie is a visitor without the cookie', () => {
    const d = decide({ method: 'GET', target: '/payday-loans', host: IPAYDAY }, door);
    expect(d).toMatchObject({ kind: 'page', experiment: { id: EXPERIMENT, counted: true } });
    expect(cookieOf(d)).toBeDefined();
  });

  it('makes the winner the page itself once stopped: its plain URL, whatever the cookie, with no experiment work, cookie or count', () => {
    const stoppedCatalog = catalogWith((t) => t.replace('"status": "running"', '"status": "stopped", "winner": "cash-before-payday"'));
    const stopped = doorOf(stoppedCatalog);
    for (const cookie of [undefined, `lsx=${'3'.repeat(16)}|${EXPERIMENT}:control`, `lsx=${'3'.repeat(16)}|${EXPERIMENT}:cash-before-payday`]) {
      const d = on('/payday-loans', cookie, stopped);
      expect(d).toMatchObject({ kind: 'page', url: CONTROL_URL });
      expect(d).not.toHaveProperty('experiment');
    }
    // the page that plain path renders is the winner's
    const loaded = stoppedCatalog.brands.get('ipaydayloans')!;
    const route = loaded.routes.find((r) => r.path === '/payday-loans')!;
    expect(loaded.layout(route.layout, route.layoutParams)?.blocks[0]).toMatchObject({ heading: 'Cash Before Payday, Without the Runaround' });
    const toControl = catalogWith((t) => t.replace('"status": "running"', '"status": "stopped"'));
    expect(on('/payday-loans', `lsx=${'3'.repeat(16)}|${EXPERIMENT}:cash-before-payday`, doorOf(toControl))).toMatchObject({ url: CONTROL_URL });
    const plain = toControl.brands.get('ipaydayloans')!;
    const own = plain.routes.find((r) => r.path === '/payday-loans')!;
    expect(plain.layout(own.layout, own.layoutParams)?.blocks[0]).not.toMatchObject({ heading: 'Cash Before Payday, Without the Runaround' });
  });

  it('shows the control before the start, counting nothing', () => {
    const early = doorOf(catalog, Date.parse('2026-10-01T00:00:00Z'));
    expect(on('/payday-loans', `lsx=${'4'.repeat(16)}|${EXPERIMENT}:cash-before-payday`, early)).toMatchObject({
      url: CONTROL_URL,
      experiment: { variant: 'control', counted: false },
    });
  });
});

describe('the pages an experiment adds', () => {
  it('are its page-changing variants’ internal paths, which a revalidation of the page reaches too', () => {
    const loaded = catalog.brands.get('ipaydayloans')!;
    expect(variantPathsOf(loaded, '/payday-loans')).toEqual([`/_v~${EXPERIMENT}~cash-before-payday/payday-loans`]);
    expect(variantPathsOf(loaded, '/installment-loans')).toEqual([]);
  });
});

describe('the console’s experiment pages', () => {
  it.each([
    ['/experiments', '/_console/experiments'],
    ['/experiments/payday-hero-headline?from=2026-11-01', '/_console/experiments/payday-hero-headline?from=2026-11-01'],
    ['/experiments/Bad_Id', undefined],
    ['/experiments/a/b', undefined],
  ])('%s → %s', (target, url) => {
    expect(decide({ method: 'GET', target, host: 'console.localhost' }, door)).toEqual({ kind: 'console', host: 'console.localhost', url });
  });
});
