/**
 * What names a bandit experiment's weights among the revisions, and their shape: kept apart from
 * ./experimentWeights.ts (which reads and writes them through the store) because the catalog's
 * in-memory allocations (engine/site/experiments/allocation.ts) need them too, and the catalog
 * goes into the brand page's server bundle, which must not load a database driver.
 */
export const EXPERIMENT_WEIGHTS = 'experiment-weights';

export interface BanditWeights {
  /** percent per variant id, adding up to 100 */
  weights: Record<string, number>;
  /** ISO 8601 UTC: when they were set */
  setAt: string;
  /** what they were computed from: visitors and conversions per variant */
  visitors: Record<string, number>;
  conversions: Record<string, number>;
}

export const weightsKey = (brand: string, experiment: string): string => `${brand}/${experiment}`;
