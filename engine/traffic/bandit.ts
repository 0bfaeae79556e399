/**
 * The bandit of an experiment that opts in ("allocation": "bandit", three or more variants): once
 * every variant has its burn-in sample of visitors at its written weight, its weights are set
 * again at most once an hour by Thompson sampling — each variant's weight is the share of draws
 * from the variants' Beta posteriors of the experiment's rate (conversions / visitors from the
 * exposures' rollup, a uniform prior) in which it is the best, with a floor so that no variant
 * stops being shown. The weights are stored as a revision (engine/store/experimentWeights.ts),
 * one instance winning each setting, and every instance's front door assigns new visitors by them
 * (engine/site/experiments/allocation.ts); visitors who hold a variant keep it.
 *
 * Every instance checks every BANDIT_CHECK_MS (default 5 minutes); the hour is counted from the
 * stored setting, so restarts and several instances change nothing about it. The random source
 * is passed in: a seeded one makes the weights repeatable in tests.
 */
import type { Experiment } from '../../schemas/brand.types';
import { onShutdown } from '../process/shutdown.mjs';
import { getCatalog, type Catalog } from '../site/catalog';
import { timeOf } from '../site/experiments/assign';
import type { Store } from '../store/db';
import { variantTotals } from '../store/experiments';
import { conversionsOf } from './experimentStats';
import { banditWeights, EXPERIMENT_WEIGHTS, saveBanditWeights, type BanditWeights } from '../store/experimentWeights';
import { publishRevision } from '../store/liveRevisions';
import { RevisionConflict } from '../store/revisions';

/** The least share a variant keeps, whatever its posterior (2 %). */
export const BANDIT_FLOOR = 0.02;
/** The weights are set at most once in this long. */
export const BANDIT_EVERY_MS = 3_600_000;
export const DEFAULT_BURN_IN = 1000;
/** Draws from the posteriors per setting: the weights' noise is under 1 % of a share. */
export const BANDIT_DRAWS = 20_000;

export { seededRandom } from './seededRandom';

/** A standard normal draw (Box–Muller). */
function normal(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** A Gamma(shape, 1) draw for shape ≥ 1 (Marsaglia and Tsang). */
function gamma(shape: number, random: () => number): number {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** A Beta(a, b) draw, a and b ≥ 1. */
export const betaDraw = (a: number, b: number, random: () => number): number => {
  const x = gamma(a, random);
  return x / (x + gamma(b, random));
};

type Arm = { id: string; visitors: number; conversions: number };

/** `count` Thompson draws: each adds a win to the variant whose Beta draw is the highest. */
function drawInto(wins: number[], arms: readonly Arm[], random: () => number, count: number): void {
  for (let i = 0; i < count; i++) {
    let best = 0;
    let top = -1;
    arms.forEach((a, k) => {
      const x = betaDraw(1 + a.conversions, 1 + Math.max(0, a.visitors - a.conversions), random);
      if (x > top) [top, best] = [x, k];
    });
    wins[best]! += 1;
  }
}

/** Each variant's share of the draws it won, raised to at least `floor`, in percent adding up to 100 (two decimals). */
function weightsOf(arms: readonly Arm[], wins: readonly number[], draws: number, floor: number): Record<string, number> {
  const shares = wins.map((w) => floor + (1 - floor * arms.length) * (w / draws));
  const percents = shares.map((s) => Math.round(s * 10_000) / 100);
  // rounding may leave the sum a hundredth off: the largest share takes the difference
  const largest = percents.indexOf(Math.max(...percents));
  percents[largest] = Math.round((percents[largest]! + 100 - percents.reduce((s, p) => s + p, 0)) * 100) / 100;
  return Object.fromEntries(arms.map((a, k) => [a.id, percents[k]!]));
}

/**
 * Thompson sampling's weights, in percent adding up to 100 (two decimals): each variant's share
 * of `draws` in which its Beta(1 + conversions, 1 + visitors − conversions) draw is the highest,
 * every share raised to at least `floor`.
 */
export function thompsonWeights(arms: readonly Arm[], random: () => number, opts: { draws?: number; floor?: number } = {}): Record<string, number> {
  const draws = opts.draws ?? BANDIT_DRAWS;
  const wins = arms.map(() => 0);
  drawInto(wins, arms, random, draws);
  return weightsOf(arms, wins, draws, opts.floor ?? BANDIT_FLOOR);
}

/** Draws between two turns of the event loop: 20,000 draws over 8 variants take ~50-150 ms, which a serving process must not stop for. */
const DRAWS_PER_TURN = 500;

/** thompsonWeights (the same draws, so the same weights for the same random source), giving the event loop a turn every DRAWS_PER_TURN draws. */
export async function thompsonWeightsYielding(
  arms: readonly Arm[],
  random: () => number,
  opts: { draws?: number; floor?: number } = {},
): Promise<Record<string, number>> {
  const draws = opts.draws ?? BANDIT_DRAWS;
  const wins = arms.map(() => 0);
  for (let done = 0; done < draws; done += DRAWS_PER_TURN) {
    if (done) await new Promise((r) => setImmediate(r));
    drawInto(wins, arms, random, Math.min(DRAWS_PER_TURN, draws - done));
  }
  return weightsOf(arms, wins, draws, opts.floor ?? BANDIT_FLOOR);
}

export type BanditStep =
  | { kind: 'set'; weights: BanditWeights }
  /** set less than an hour ago */
  | { kind: 'hourly'; setAt: string }
  /** a variant has fewer visitors than the burn-in */
  | { kind: 'burnIn'; variant: string; visitors: number; burnIn: number }
  /** another instance set them first */
  | { kind: 'taken' };

/** One experiment's turn: new weights when the hour since the last setting is up and the burn-in is done. */
export async function banditStep(db: Store, brand: string, e: Experiment, now: Date, random: () => number): Promise<BanditStep> {
  const current = await banditWeights(db, brand, e.id);
  if (current && now.getTime() - Date.parse(current.document.setAt) < BANDIT_EVERY_MS) return { kind: 'hourly', setAt: current.document.setAt };
  const found = new Map(
    (await variantTotals(db, { brand, experiment: e.id, fromDay: e.start.slice(0, 10), toDay: now.toISOString().slice(0, 10) })).map((t) => [t.variant, t]),
  );
  const burnIn = e.burnIn ?? DEFAULT_BURN_IN;
  const arms = e.variants.map((v) => {
    const t = found.get(v.id);
    return { id: v.id, visitors: t?.visitors ?? 0, conversions: t ? conversionsOf(t, e.metric ?? 'storedPerVisit') : 0 };
  });
  const short = arms.find((a) => a.visitors < burnIn);
  if (short) return { kind: 'burnIn', variant: short.id, visitors: short.visitors, burnIn };
  const weights: BanditWeights = {
    weights: await thompsonWeightsYielding(arms, random),
    setAt: now.toISOString(),
    visitors: Object.fromEntries(arms.map((a) => [a.id, a.visitors])),
    conversions: Object.fromEntries(arms.map((a) => [a.id, a.conversions])),
  };
  try {
    await saveBanditWeights(db, brand, e.id, weights, current);
  } catch (err) {
    if (err instanceof RevisionConflict) return { kind: 'taken' };
    throw err;
  }
  return { kind: 'set', weights };
}

/** Whether an experiment's bandit is at work at `now`: opted in, running, started and not ended. */
const banditAt = (e: Experiment, now: number): boolean =>
  e.allocation === 'bandit' && e.status === 'running' && now >= timeOf(e.start) && (e.end === undefined || now < timeOf(e.end));

/** Every bandit experiment's turn; when any weights were set, every instance is told. The experiments set. */
export async function updateBandits(db: Store, catalog: Catalog, now: Date, random: () => number): Promise<string[]> {
  const set: string[] = [];
  for (const loaded of catalog.brands.values())
    for (const e of loaded.brand.experiments ?? [])
      if (banditAt(e, now.getTime()) && (await banditStep(db, loaded.brand.id, e, now, random)).kind === 'set') set.push(`${loaded.brand.id}/${e.id}`);
  if (set.length) await publishRevision(EXPERIMENT_WEIGHTS, db);
  return set;
}

const SHARED = Symbol.for('loansites.banditJob');
const holder = globalThis as typeof globalThis & { [SHARED]?: () => void };

/** Starts this process's bandit checks once (only when some brand has a bandit experiment, checked each time); returns its stop function. */
export function ensureBanditJob(store: () => Promise<Store>): () => void {
  if (holder[SHARED]) return holder[SHARED];
  const every = Math.max(1000, Number(process.env.BANDIT_CHECK_MS) || 300_000);
  const run = () => {
    const catalog = getCatalog();
    const any = [...catalog.brands.values()].some((b) => b.brand.experiments?.some((e) => e.allocation === 'bandit'));
    if (!any) return;
    store()
      .then((db) => updateBandits(db, catalog, new Date(), Math.random))
      .then((set) => set.length && console.log(`[experiments] bandit weights set: ${set.join(', ')}`))
      .catch((err: Error) => console.error('[experiments] bandit weights not set:', err.message));
  };
  const timer = setInterval(run, every);
  timer.unref();
  const stop = (holder[SHARED] = () => {
    clearInterval(timer);
    holder[SHARED] = undefined;
  });
  onShutdown('bandit', 'work', stop);
  return stop;
}
