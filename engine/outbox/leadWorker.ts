/**
 * The lead worker of this process. The server starts it (instrumentation.ts) unless
 * LEADS_WORKER=off — then `npm run worker` runs it as its own process. POST /api/leads wakes
 * it so a new lead goes out at once instead of at the next poll. Several instances may each
 * run one: claims keep a row to one worker (engine/store/leads.ts).
 */
import { onShutdown } from '../process/shutdown.mjs';
import { pruneCertificates } from '../store/certificates';
import { getStore, storeKindOf } from '../store/db';
import { startLeadWorker, type LeadWorker } from './deliver';
import { workerIntervalFromEnv } from './workerInterval';

const KEY = Symbol.for('loansites.leadWorker');
type Holder = { [KEY]?: LeadWorker };

/** Starts this process's worker once (API routes and instrumentation are separate bundles: the holder is global). */
export function ensureLeadWorker(): LeadWorker {
  const g = globalThis as Holder;
  if (!g[KEY]) {
    const interval = workerIntervalFromEnv();
    if (interval.problem) console.warn(`[leads] ${interval.problem}: polling every ${interval.ms} ms`);
    const worker = startLeadWorker(async () => ({ db: await getStore(), kind: storeKindOf() }), { intervalMs: interval.ms });
    g[KEY] = worker;
    // The round in progress ends before the store closes: a delivery is recorded, not cut in half.
    onShutdown('lead worker', 'work', () => worker.stop());
    // Consent certificates past their retention (CERTIFICATE_RETENTION_DAYS, longer once claimed) are deleted hourly.
    const prune = setInterval(() => {
      getStore()
        .then((db) => pruneCertificates(db, new Date()))
        .then((n) => n && console.log(`[certificates] ${n} past their retention deleted`))
        .catch((err: Error) => console.error(`[certificates] pruning failed: ${err.message}`));
    }, 3600_000);
    prune.unref();
    onShutdown('certificate pruning', 'work', async () => clearInterval(prune));
  }
  return g[KEY];
}

export const leadWorkerEnabled = (): boolean => process.env.LEADS_WORKER !== 'off';

export function wakeLeadWorker(): void {
  if (leadWorkerEnabled()) ensureLeadWorker().wake();
}
