/**
 * The bandit of an experiment with three or more variants ("allocation": "bandit",
 * engine/traffic/bandit.ts): Thompson sampling's weights under a seeded random source (the
 * same seed, the same weights; the best variant gets most, none under the floor, 100 in all);
 * on SQLite and PostgreSQL, no weights before every variant has its burn-in, then at most once an
 * hour, stored for every instance; the front door's assignment of new visitors follows the
 * weights set while a visitor holding a variant keeps it; the validator refuses a bandit with two
 * variants at its pointer.
 */
import { describe, expect, it } from 'vitest';
import type { Brand, Experiment, ExperimentVariant } from '../../schemas/brand.types';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { buildCatalog, readSources, type Catalog } from '../../engine/site/catalog';
import { applyBanditWeights } from '../../engine/site/experiments/allocation';
import { decide } from '../../engine/frontDoor/frontDoor';
import { countingIds, experimentDoor } from '../support/experimentDoor';
import { banditStep, seededRandom, thompsonWeights, thompsonWeightsYielding, updateBandits } from '../../engine/traffic/bandit';
import { banditWeights, EXPERIMENT_WEIGHTS, type BanditWeights } from '../../engine/store/experimentWeights';
import type { Revision } from '../../engine/store/revisions';
import { bothStores, migratedStore } from '../support/bothStores';
import { writeExposures } from '../support/experimentExposures';

const EXPERIMENT = 'payday-hero-headline';
const sources = readSources({ extraDir: '' });

/** The payday brand with its experiment given a third variant and the bandit (or `edit` of it). */
function banditCatalog(edit: (e: Experiment) => Experiment = (e) => e): Catalog {
  const brands = sources.brands.map((s) => {
    if (s.file !== 'brands/ipaydayloans.json') return s;
    const brand = JSON.parse(s.text) as Brand;
    const e = brand.experiments![0]!;
    brand.experiments = [
      edit({
        ...e,
        allocation: 'bandit',
        burnIn: 100,
        variants: [
          { id: 'control', weight: 34 },
          { id: 'cash-before-payday', weight: 33, texts: { '/blocks/0/heading': 'Cash Before Payday, Without the Runaround' } },
          { id: 'short', weight: 33, texts: { '/blocks/0/heading': 'Payday Loans, Fast' } },
        ],
      }),
    ];
    return { ...s, text: JSON.stringify(brand, null, 2) };
  });
  return buildCatalog(brands, sources.layouts, BLOCK_SPECS);
}

describe('Thompson sampling’s weights', () => {
  const arms = (...rates: [visitors: number, conversions: number][]) => rates.map(([visitors, conversions], i) => ({ id: `v${i}`, visitors, conversions }));
  const table: { name: string; arms: ReturnType<typeof arms>; check: (w: Record<string, number>) => void }[] = [
    {
      name: 'three equal variants share about equally',
      arms: arms([1000, 50], [1000, 50], [1000, 50]),
      check: (w) => Object.values(w).forEach((x) => expect(Math.abs(x - 100 / 3)).toBeLessThan(3)),
    },
    {
      name: 'a clearly better variant gets nearly everything, the others the floor',
      arms: arms([2000, 200], [2000, 100], [2000, 100]),
      check: (w) => expect(w).toEqual({ v0: 96, v1: 2, v2: 2 }),
    },
    {
      name: 'two close leaders split most of it, a clear loser keeps the floor',
      arms: arms([1000, 60], [1000, 60], [1000, 10]),
      check: (w) => {
        expect(w.v2).toBe(2);
        expect(Math.abs(w.v0! - w.v1!)).toBeLessThan(6);
      },
    },
    {
      name: 'no data yet: a uniform prior, equal shares',
      arms: arms([0, 0], [0, 0], [0, 0], [0, 0]),
      check: (w) => Object.values(w).forEach((x) => expect(Math.abs(x - 25)).toBeLessThan(2)),
    },
  ];
  it.each(table)('$name (seeded; the same seed gives the same weights; 100 in all, none under 2)', ({ arms: a, check }) => {
    const w = thompsonWeights(a, seededRandom(7));
    check(w);
    expect(thompsonWeights(a, seededRandom(7))).toEqual(w);
    expect(Object.values(w).reduce((s, x) => s + x, 0)).toBeCloseTo(100, 9);
    for (const x of Object.values(w)) expect(x).toBeGreaterThanOrEqual(2);
  });
  it('the serving process keeps answering while the weights are drawn: other work runs between the draws, and the weights are the same', async () => {
    const a = arms([50_000, 2_000], [50_010, 2_007], [50_020, 2_014], [50_030, 2_021], [50_040, 2_028], [50_050, 2_035], [50_060, 2_042], [50_070, 2_049]);
    let finished = false;
    let turns = 0;
    const other = setInterval(() => (turns += finished ? 0 : 1), 0);
    const drawing = thompsonWeightsYielding(a, seededRandom(11)).finally(() => (finished = true));
    const w = await drawing;
    clearInterval(other);
    // a timer (a request, in a server) got its turn while the draws were under way, not only after
    expect(turns).toBeGreaterThan(0);
    expect(w).toEqual(thompsonWeights(a, seededRandom(11)));
  });
});

describe('the validator', () => {
  it('refuses a bandit of two variants, at its pointer', () => {
    const built = banditCatalog((e) => ({
      ...e,
      variants: e.variants.slice(0, 2).map((v) => ({ ...v, weight: 50 })) as [ExperimentVariant, ExperimentVariant],
    }));
    expect(built.problems).toContainEqual(
      expect.stringMatching(/^brands\/ipaydayloans\.json:\d+:\d+ \/experiments\/0\/allocation: a bandit is for three or more variants/),
    );
    expect(banditCatalog().problems).toEqual([]);
  });
});

const stores = bothStores('loansites-experiment-bandit-');

describe.each(stores.kinds('bandit.sqlite'))('its weights on %s', (_kind, options) => {
  const db = migratedStore(options);
  const experiment = banditCatalog().brands.get('ipaydayloans')!.brand.experiments![0]!;
  const at = (iso: string) => new Date(iso);

  it('sets none before every variant has its burn-in, then sets them, then at most once an hour', async () => {
    await writeExposures(db(), { prefix: 'c-', n: 150, stored: 30, variant: 'control', at: '2026-11-20T08:00:00.000Z' });
    await writeExposures(db(), { prefix: 'b-', n: 150, stored: 5, variant: 'cash-before-payday', at: '2026-11-20T08:00:00.000Z' });
    await writeExposures(db(), { prefix: 's-', n: 99, stored: 5, variant: 'short', at: '2026-11-20T08:00:00.000Z' });
    const random = seededRandom(11);
    expect(await banditStep(db(), 'ipaydayloans', experiment, at('2026-11-20T09:00:00Z'), random)).toEqual({
      kind: 'burnIn',
      variant: 'short',
      visitors: 99,
      burnIn: 100,
    });
    expect(await banditWeights(db(), 'ipaydayloans', EXPERIMENT)).toBeUndefined();

    await writeExposures(db(), { prefix: 's2-', n: 1, stored: 0, variant: 'short', at: '2026-11-20T08:30:00.000Z' });
    const first = await banditStep(db(), 'ipaydayloans', experiment, at('2026-11-20T09:00:00Z'), random);
    expect(first).toMatchObject({
      kind: 'set',
      weights: { setAt: '2026-11-20T09:00:00.000Z', visitors: { control: 150, short: 100 }, conversions: { control: 30 } },
    });
    const stored = await banditWeights(db(), 'ipaydayloans', EXPERIMENT);
    expect(stored).toMatchObject({ version: 1, document: { setAt: '2026-11-20T09:00:00.000Z' } });
    // the control converts at 20 %, the others at 3-5 %: it gets nearly all of the new visitors
    expect(stored!.document.weights.control).toBeGreaterThan(90);

    expect(await banditStep(db(), 'ipaydayloans', experiment, at('2026-11-20T09:59:00Z'), random)).toEqual({
      kind: 'hourly',
      setAt: '2026-11-20T09:00:00.000Z',
    });
    // every instance's job: one hour after, set once more (by the running experiments of the catalog)
    expect(await updateBandits(db(), banditCatalog(), at('2026-11-20T10:00:00Z'), random)).toEqual([`ipaydayloans/${EXPERIMENT}`]);
    expect((await banditWeights(db(), 'ipaydayloans', EXPERIMENT))?.version).toBe(2);
    const audited = await db().selectFrom('console_audit').select('action').where('action', '=', 'experiment_weights_set').execute();
    expect(audited).toHaveLength(2);
  });
});

describe('the front door’s assignment', () => {
  const catalog = banditCatalog();
  const door = experimentDoor(catalog, countingIds());
  const variantOf = (cookie?: string) => {
    const d = decide({ method: 'GET', target: '/payday-loans', host: 'ipaydayloans.localhost', cookie }, door);
    return d.kind === 'page' ? d.experiment?.variant : undefined;
  };
  const shares = (n: number) => {
    const seen: Record<string, number> = {};
    for (let i = 0; i < n; i++) {
      const v = variantOf()!;
      seen[v] = (seen[v] ?? 0) + 1 / n;
    }
    return seen;
  };
  const revisions = (weights: Record<string, number>) =>
    new Map<string, Revision<BanditWeights>>([
      [
        `ipaydayloans/${EXPERIMENT}`,
        {
          kind: EXPERIMENT_WEIGHTS,
          key: `ipaydayloans/${EXPERIMENT}`,
          version: 1,
          author: 'bandit',
          savedAt: '',
          baseHash: '',
          document: { weights, setAt: '2026-11-28T11:00:00.000Z', visitors: {}, conversions: {} },
        },
      ],
    ]);

  it('assigns new visitors by the weights the bandit set, while a visitor holding a variant keeps it', () => {
    applyBanditWeights(new Map());
    expect(shares(3000).control).toBeCloseTo(0.34, 1);
    const holder = `lsx=${'5'.repeat(16)}|${EXPERIMENT}:short`;
    expect(variantOf(holder)).toBe('short');

    applyBanditWeights(revisions({ control: 2, 'cash-before-payday': 2, short: 96 }));
    const after = shares(3000);
    expect(after.short).toBeGreaterThan(0.94);
    expect(after.control).toBeGreaterThan(0.005);
    applyBanditWeights(revisions({ control: 96, 'cash-before-payday': 2, short: 2 }));
    expect(shares(3000).control).toBeGreaterThan(0.94);
    // the visitor assigned before keeps their variant, whatever the weights now
    expect(variantOf(holder)).toBe('short');
    expect(variantOf(`lsx=${'6'.repeat(16)}|${EXPERIMENT}:cash-before-payday`)).toBe('cash-before-payday');
    applyBanditWeights(new Map());
  });
});
