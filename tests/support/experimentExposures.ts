/** Experiment exposures written as the events API writes them (engine/store/traffic.ts writeTraffic): visits exposed to a variant, some having stored a lead. */
import { writeTraffic } from '../../engine/store/traffic';
import type { Store } from '../../engine/store/db';
import { trafficEvent } from './trafficEvent';

/** `n` visits ("<prefix>000000", …) exposed to `variant` of ipaydayloans' `experiment` at `at`, the first `stored` of them (default all) with a stored lead. */
export async function writeExposures(
  db: Store,
  opts: { prefix: string; n: number; variant: string; at: string; stored?: number; experiment?: string },
): Promise<void> {
  const stored = opts.stored ?? opts.n;
  for (let i = 0; i < opts.n; i += 100) {
    const ids = Array.from({ length: Math.min(100, opts.n - i) }, (_, k) => `${opts.prefix}${String(i + k).padStart(6, '0')}`);
    await writeTraffic(db, {
      visits: [],
      // the page view that exposed each visit, and the stored lead of those that have one
      events: ids.map((id, k) => trafficEvent(id, i + k < stored ? 'stored' : 'page_view', opts.at, { path: '/payday-loans' })),
      exposures: ids.map((visitId) => ({
        visitId,
        brand: 'ipaydayloans',
        experiment: opts.experiment ?? 'payday-hero-headline',
        variant: opts.variant,
        createdAt: opts.at,
      })),
    });
  }
}
