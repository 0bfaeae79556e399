/** Experiment exposures written as the events API writes them (engine/store/traffic.ts writeTraffic): visits exposed to a variant, some having stored a lead. */
import { writeTraffic } from '../../engine/store/traffic';
import type { Store } from '../../engine/store/db';
import { visitRow } from '../../engine/store/trafficRules';
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

/**
 * `n` visitors ("v-<variant>-0", …) landing on ipaydayloans' /payday-loans at `when`, each with its
 * visit row and page view, exposed to `variant`, the first `stored` of them storing a lead: what the
 * console's visitor counts read, unlike `writeExposures`, which writes no visit rows.
 */
export async function writeExposedVisitors(
  db: Store,
  opts: { variant: string; n: number; stored: number; when: Date; device: 'desktop' | 'mobile'; experiment?: string },
): Promise<void> {
  const at = opts.when.toISOString();
  const userAgent = opts.device === 'mobile' ? 'Mozilla/5.0 (iPhone) Mobile' : 'Mozilla/5.0';
  const ids = Array.from({ length: opts.n }, (_, i) => `v-${opts.variant}-${i}`);
  await writeTraffic(db, {
    visits: ids.map((id) =>
      visitRow(
        id,
        { path: '/payday-loans', params: {} },
        { brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent, optedOut: false, now: opts.when },
      ),
    ),
    events: ids.flatMap((id, i) => {
      const event = (metric: string) => trafficEvent(id, metric, at, { path: '/payday-loans', device: opts.device });
      return i < opts.stored ? [event('page_view'), event('stored')] : [event('page_view')];
    }),
    exposures: ids.map((visitId) => ({
      visitId,
      brand: 'ipaydayloans',
      experiment: opts.experiment ?? 'payday-hero-headline',
      variant: opts.variant,
      createdAt: at,
    })),
  });
}
