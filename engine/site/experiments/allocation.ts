/**
 * The weights a bandit experiment's new visitors are assigned by, held in memory for the front
 * door: one allocation object per experiment, whose variants are the written ones until the
 * bandit sets weights (engine/traffic/bandit.ts, stored as the experiment-weights revisions of
 * engine/store/experimentWeights.ts), then the written variants with those weights. Each new set
 * of weights — on this instance at once, on the others through the live revisions — replaces the
 * object's list once; an assignment only reads it (assign.ts servingOf), and a visitor who holds a
 * variant never looks at it. Held on globalThis: the front door's bundle and Next's share it.
 */
import type { Revision } from '../../store/revisions';
// the key and shape only: this module is part of the catalog, which the brand page's bundle holds (no store there)
import { weightsKey, type BanditWeights } from '../../store/banditWeightsKey';
import type { LiveExperiment } from './assign';

type Variants = LiveExperiment['variants'];

/** What an experiment's assignment reads: the variants with the weights in force. */
export interface Allocation {
  variants: Variants;
  /** when the bandit set them (undefined: the written weights) */
  setAt?: string;
}

interface Entry {
  allocation: Allocation;
  /** the written variants, as the catalog compiled them */
  written: Variants;
  weights?: BanditWeights;
}

const SHARED = Symbol.for('loansites.banditAllocations');
interface State {
  table: Map<string, Entry>;
}
const holder = globalThis as typeof globalThis & { [SHARED]?: State };
const state: State = (holder[SHARED] ??= { table: new Map() });

/** The written variants with the bandit's weights over them (a variant it has no weight for keeps its written one). */
const weighted = (written: Variants, set: BanditWeights | undefined): Variants =>
  Object.freeze(written.map((v) => (set && Object.hasOwn(set.weights, v.id) ? { ...v, weight: set.weights[v.id]! } : v)));

function entryOf(key: string, written: Variants): Entry {
  let e = state.table.get(key);
  if (!e) state.table.set(key, (e = { allocation: { variants: written }, written }));
  return e;
}

/** The allocation a compiled bandit experiment assigns by: one object per experiment, kept across catalog rebuilds. */
export function allocationFor(brand: string, experiment: string, written: Variants): Allocation {
  const e = entryOf(weightsKey(brand, experiment), written);
  e.written = written;
  e.allocation.variants = weighted(written, e.weights);
  return e.allocation;
}

/**
 * The allocation of a bandit experiment in a brand built alone — a studio draft checked or
 * previewed, not served: the weights in force over the draft's variants, in an object of its own.
 * The served experiment's allocation is left as it is: a draft's new variant must not be assigned
 * to the published brand's visitors.
 */
export function detachedAllocation(brand: string, experiment: string, written: Variants): Allocation {
  const weights = state.table.get(weightsKey(brand, experiment))?.weights;
  return { variants: weighted(written, weights), ...(weights ? { setAt: weights.setAt } : {}) };
}

/** Takes the newest weights of every bandit experiment (the live revisions' whole set): each allocation's list is made once here. */
export function applyBanditWeights(revisions: ReadonlyMap<string, Revision<BanditWeights>>): void {
  for (const [key, e] of state.table)
    if (!revisions.has(key)) {
      e.weights = undefined;
      e.allocation.variants = e.written;
      e.allocation.setAt = undefined;
    }
  for (const [key, r] of revisions) {
    const e = entryOf(key, []);
    e.weights = r.document;
    e.allocation.variants = weighted(e.written, r.document);
    e.allocation.setAt = r.document.setAt;
  }
}
