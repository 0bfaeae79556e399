/**
 * A bandit experiment's weights as last set (engine/traffic/bandit.ts), as a kind of the generic
 * revisions (./revisions.ts) keyed "<brand>/<experiment>": every setting is a new version,
 * audited, and one instance wins each hour's setting (a second save over the same version is a
 * conflict). The live revisions (./liveRevisions.ts) bring each new set to every instance, where
 * the front door's assignment reads it from memory (engine/site/experiments/allocation.ts).
 */
import type { Store } from './db';
import { latestRevision, saveRevision, type Revision } from './revisions';
import { EXPERIMENT_WEIGHTS, weightsKey, type BanditWeights } from './banditWeightsKey';

export { EXPERIMENT_WEIGHTS, weightsKey, type BanditWeights };

/** The weights last set for an experiment, if the bandit has set any. */
export const banditWeights = (db: Store, brand: string, experiment: string): Promise<Revision<BanditWeights> | undefined> =>
  latestRevision<BanditWeights>(db, EXPERIMENT_WEIGHTS, weightsKey(brand, experiment));

/** Stores new weights over the version read (`over`); a RevisionConflict when another instance set them since. */
export function saveBanditWeights(db: Store, brand: string, experiment: string, weights: BanditWeights, over: Revision<BanditWeights> | undefined) {
  return saveRevision<BanditWeights>(db, {
    kind: EXPERIMENT_WEIGHTS,
    key: weightsKey(brand, experiment),
    document: weights,
    expectedVersion: over?.version ?? 0,
    author: 'bandit',
    baseHash: '',
    before: over?.document ?? null,
    now: new Date(weights.setAt),
    action: 'experiment_weights_set',
  });
}
