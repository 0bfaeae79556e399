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
  // One dynamic import for all of it (engine/frontDoor/startUp.ts says why).
  const {
    requireLeadKey,
    configuredDestinations,
    getBuyers,
    requireBuyerSecrets,
    getStore,
    storeKindOf,
    checkNewestSealed,
    ensureLeadWorker,
    leadWorkerEnabled,
    ensureSaleSweep,
    saleWorkerEnabled,
    ensureTrafficPruner,
    ensureBanditJob,
    ensureAlertWorker,
    liveBuyers,
  } = await import('./engine/frontDoor/startUp');
  // A deployment without the key that seals leads at rest does not start (engine/keys/sealing.ts).
  const ring = requireLeadKey();
  // A malformed LEAD_DESTINATIONS is a start-up error that says what is wrong, not a surprise at the first lead.
  configuredDestinations();
  // Buyer files are checked once at start (a broken one is left out, logged); a deployment missing a buyer's secret does not start.
  requireBuyerSecrets(getBuyers());
  const startWithStore = async (): Promise<void> => {
    const db = await getStore();
    console.log(`[store] ${storeKindOf()} store ready`);
    // Keys that cannot open the newest sealed row would fail every pending delivery, one retry at a time: say so, and do not start the worker.
    const keyProblem = await checkNewestSealed(db, ring);
    if (keyProblem) console.error(`[leads] ${keyProblem} The lead worker is not started.`);
    // The lead outbox worker runs inside the server unless LEADS_WORKER=off (then: npm run worker).
    if (leadWorkerEnabled() && !keyProblem) ensureLeadWorker();
    // The sale's sweep takes up sales nobody holds (a restart mid-sale); SALE_WORKER=off leaves it to another process.
    if (saleWorkerEnabled() && !keyProblem) ensureSaleSweep();
    // Raw funnel events past their retention period are pruned in the background (the rollups stay).
    ensureTrafficPruner(getStore);
    // A bandit experiment's weights are set again at most hourly from its exposures (engine/traffic/bandit.ts).
    ensureBanditJob(getStore);
    // Alert rules set in the console are checked in the background, their webhook messages sent with retries.
    ensureAlertWorker(getStore, () => [...liveBuyers().buyers.values()].map((b) => b.buyer));
  };
  try {
    await startWithStore();
  } catch (err) {
    // The pages do not need the store; its API routes answer with an error and retry on the next
    // request. The background work needs it too, and nothing else would start it: the sale sweep
    // would never take up a sale whose process died, nor the lead worker send a delivery.
    console.error(`[store] not ready: ${messageOf(err)}; the background work starts once it is (tried every ${STORE_RETRY_MS / 1000} s)`);
    retryUntilReady(startWithStore, messageOf(err));
  }
}

/** How often a server that started without its store tries again to start the work that needs it. */
const STORE_RETRY_MS = 5000;

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Runs `start` every STORE_RETRY_MS until it succeeds or the process stops; a new reason for failing is logged once. */
function retryUntilReady(start: () => Promise<void>, first: string): void {
  let last = first;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const attempt = () => {
    timer = setTimeout(() => {
      start().then(
        () => console.log('[store] ready: the background work is started'),
        (err: unknown) => {
          const message = messageOf(err);
          if (message !== last) console.error(`[store] still not ready: ${message}`);
          last = message;
          if (!stopped) attempt();
        },
      );
    }, STORE_RETRY_MS);
    timer.unref();
  };
  attempt();
  import('./engine/process/shutdown.mjs')
    .then(({ onShutdown }) =>
      onShutdown('store start retry', 'work', () => {
        stopped = true;
        clearTimeout(timer);
      }),
    )
    .catch(() => undefined);
}
