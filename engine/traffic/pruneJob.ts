/**
 * The retention job: raw funnel events (and visits no lead refers to), and experiment exposures
 * with their daily rollup, older than EVENTS_RETENTION_DAYS are deleted every EVENTS_PRUNE_INTERVAL_MS (default 6 hours), the first
 * time a minute after start; the hourly rollups stay for good. On PostgreSQL whole days'
 * partitions of events are dropped; on SQLite rows go in bounded batches (engine/store/traffic.ts
 * pruneTraffic). Several instances may run it: a DELETE of rows already gone deletes nothing, a
 * DROP … IF EXISTS of a partition already dropped drops nothing. `npm run events:prune` runs it
 * once by hand.
 */
import { onShutdown } from '../process/shutdown.mjs';
import type { Store } from '../store/db';
import { eventsRetentionDays, pruneTraffic } from '../store/traffic';

export async function pruneOnce(db: Store, now = new Date(), env: Record<string, string | undefined> = process.env) {
  return pruneTraffic(db, { now, retentionDays: eventsRetentionDays(env) });
}

const SHARED = Symbol.for('loansites.trafficPruner');
const holder = globalThis as typeof globalThis & { [SHARED]?: () => void };

/** Starts this process's pruner once; returns its stop function. */
export function ensureTrafficPruner(store: () => Promise<Store>): () => void {
  if (holder[SHARED]) return holder[SHARED];
  const every = Number(process.env.EVENTS_PRUNE_INTERVAL_MS ?? 6 * 3600_000);
  const run = () =>
    store()
      .then((db) => pruneOnce(db))
      .then(
        (n) =>
          (n.events || n.visits || n.exposures) &&
          console.log(
            `[traffic] pruned ${n.events} events (${n.partitions} day partitions), ${n.visits} visits and ${n.exposures} experiment exposures past retention`,
          ),
      )
      .catch((err: Error) => console.error('[traffic] pruning failed:', err.message));
  const first = setTimeout(run, 60_000);
  const timer = setInterval(run, every);
  first.unref();
  timer.unref();
  const stop = (holder[SHARED] = () => {
    clearTimeout(first);
    clearInterval(timer);
    holder[SHARED] = undefined;
  });
  onShutdown('traffic pruner', 'work', stop);
  return stop;
}
