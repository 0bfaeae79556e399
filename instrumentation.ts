/**
 * Runs once when the server starts (Next's instrumentation hook; `next start` calls it as the
 * server sets up for its first request): checks the lead key, opens the store and runs its
 * migrations, then starts the lead outbox worker, so
 * `npm start` on a fresh machine creates data/loansites.sqlite, and a bad DATABASE_URL shows
 * in the server log even when no visitor has posted a trace yet.
 * Not during `next build` (its workers have no use for a database).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  // A deployment without the key that seals leads at rest does not start (engine/keys/sealing.ts).
  const { requireLeadKey } = await import('./engine/keys/sealing');
  const ring = requireLeadKey();
  // A malformed LEAD_DESTINATIONS is a start-up error that says what is wrong, not a surprise at the first lead.
  const { configuredDestinations } = await import('./engine/leads/destinations');
  configuredDestinations();
  // Buyer files are checked once at start (a broken one is left out, logged); a deployment missing a buyer's secret does not start.
  const { getBuyers, requireBuyerSecrets } = await import('./engine/sale/buyers');
  requireBuyerSecrets(getBuyers());
  const { getStore, storeKindOf } = await import('./engine/store/db');
  try {
    const db = await getStore();
    console.log(`[store] ${storeKindOf()} store ready`);
    // Keys that cannot open the newest sealed row would fail every pending delivery, one retry at a time: say so, and do not start the worker.
    const { checkNewestSealed } = await import('./engine/leads/rotation');
    const keyProblem = await checkNewestSealed(db, ring);
    if (keyProblem) console.error(`[leads] ${keyProblem} The lead worker is not started.`);
    // The lead outbox worker runs inside the server unless LEADS_WORKER=off (then: npm run worker).
    const { ensureLeadWorker, leadWorkerEnabled } = await import('./engine/outbox/leadWorker');
    if (leadWorkerEnabled() && !keyProblem) ensureLeadWorker();
    // The sale's sweep takes up sales nobody holds (a restart mid-sale); SALE_WORKER=off leaves it to another process.
    const { ensureSaleSweep, saleWorkerEnabled } = await import('./engine/outbox/saleWorker');
    if (saleWorkerEnabled() && !keyProblem) ensureSaleSweep();
    // Raw funnel events past their retention period are pruned in the background (the rollups stay).
    const { ensureTrafficPruner } = await import('./engine/traffic/pruneJob');
    ensureTrafficPruner(getStore);
    // A bandit experiment's weights are set again at most hourly from its exposures (engine/traffic/bandit.ts).
    const { ensureBanditJob } = await import('./engine/traffic/bandit');
    ensureBanditJob(getStore);
    // Alert rules set in the console are checked in the background, their webhook messages sent with retries.
    const { ensureAlertWorker } = await import('./engine/console/alerts');
    const { liveBuyers } = await import('./engine/sale/buyerRevisions');
    ensureAlertWorker(getStore, () => [...liveBuyers().buyers.values()].map((b) => b.buyer));
  } catch (err) {
    // The pages do not need the store; its API routes answer with an error and retry on the next request.
    console.error('[store] not ready:', err instanceof Error ? err.message : err);
  }
}
