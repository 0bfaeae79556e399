/**
 * The sale in this process: startSale runs a stored lead's sale in the background (POST
 * /api/leads does not wait for it), at most SALE_CONCURRENCY at a time; a sweep every few
 * seconds takes up sales nobody holds — never started (the process died between storing the
 * lead and starting its sale: a minute after the lead was stored, engine/store/sales.ts
 * ADOPT_AFTER_MS) or abandoned (their worker died: the lease ran out).
 */
import { onShutdown } from '../process/shutdown.mjs';
import { randomBytes } from 'node:crypto';

import { wakeLeadWorker } from './leadWorker';
import { getCatalog } from '../site/catalog';
import { getStore, storeKindOf, type Store, type StoreKind } from '../store/db';
import { contactKey, contactKeys } from '../sale/keys';
import { runSale, type SaleDeps } from '../sale/runner';
import { duplicateWindowMs, saleBuyers, saleConcurrency, saleSweepIntervalMs } from '../sale/settings';
import { BUYER_KIND } from '../sale/buyerRevisions';
import { revisionsReady } from '../store/liveRevisions';
import { adoptLeadsWithoutSale, dueSales, ensureSale } from '../store/sales';

const SHARED = Symbol.for('loansites.sale');
type Runtime = { worker: string; running: number; queue: string[]; timer?: NodeJS.Timeout; inFlight?: Set<Promise<void>>; stopped?: boolean };
const holder = globalThis as typeof globalThis & { [SHARED]?: Runtime };
function runtime(): Runtime {
  if (!holder[SHARED]) {
    holder[SHARED] = { worker: `${process.pid}-${randomBytes(4).toString('hex')}`, running: 0, queue: [] };
    onShutdown('sales', 'work', stopSales);
  }
  return holder[SHARED];
}
const warned = new Set<string>();
const warnOnce = (problem: string | undefined) => {
  if (problem && !warned.has(problem)) {
    warned.add(problem);
    console.warn(`[sale] ${problem}`);
  }
};
const concurrency = () => {
  const c = saleConcurrency();
  warnOnce(c.problem);
  return c.value;
};

function depsFor(): SaleDeps {
  const { buyers, secretOf } = saleBuyers();
  return {
    buyers,
    secretOf,
    contactKey: contactKey(),
    suppressionKeys: contactKeys(),
    worker: runtime().worker,
    duplicateWindowMs: duplicateWindowMs(),
    postbacksOf: (brand) => getCatalog().brands.get(brand)?.brand.postbacks,
  };
}

function pump(): void {
  const rt = runtime();
  while (!rt.stopped && rt.running < concurrency() && rt.queue.length) {
    const leadId = rt.queue.shift()!;
    rt.running += 1;
    const sale: Promise<void> = (async () => {
      const db = await getStore();
      // The console's changes to buyers (a pause, a cap) are read once at start, then kept current.
      await revisionsReady(BUYER_KIND);
      const result = await runSale(db, leadId, depsFor());
      if (result && result.status !== 'sold') wakeLeadWorker();
    })()
      .catch((err: Error) => console.error(`[sale] ${leadId}: ${err.message}`))
      .finally(() => {
        rt.running -= 1;
        rt.inFlight?.delete(sale);
        pump();
      });
    (rt.inFlight ??= new Set()).add(sale);
  }
}

/**
 * Stops this process's sales as it shuts down: no new one starts (the queued ones are recorded and
 * nobody holds them, so the next sweep here or on another instance takes them up) and the running
 * ones finish, so a buyer's answer is not left unrecorded.
 */
export async function stopSales(): Promise<void> {
  const rt = runtime();
  rt.stopped = true;
  clearInterval(rt.timer);
  rt.timer = undefined;
  rt.queue.length = 0;
  await Promise.allSettled([...(rt.inFlight ?? [])]);
}

/** Creates the lead's sale and runs it in the background; safe to call again for the same lead. */
export async function startSale(db: Store, leadId: string): Promise<void> {
  await ensureSale(db, leadId, new Date());
  const rt = runtime();
  if (!rt.queue.includes(leadId)) rt.queue.push(leadId);
  pump();
}

/** One sweep: adopt leads without a sale (the last day, a minute old at least) and queue the sales nobody holds. */
export async function sweepSales(db: Store, kind: StoreKind): Promise<void> {
  const now = new Date();
  await adoptLeadsWithoutSale(db, now);
  const rt = runtime();
  for (const id of await dueSales(db, kind, now, 50)) if (!rt.queue.includes(id)) rt.queue.push(id);
  pump();
}

export const saleWorkerEnabled = (): boolean => process.env.SALE_WORKER !== 'off';

/** Starts this process's sweep once (instrumentation.ts). */
export function ensureSaleSweep(intervalMs?: number): void {
  if (intervalMs === undefined) {
    const every = saleSweepIntervalMs();
    warnOnce(every.problem);
    intervalMs = every.value;
  }
  const rt = runtime();
  if (rt.timer || rt.stopped) return;
  rt.timer = setInterval(() => {
    getStore()
      .then((db) => sweepSales(db, storeKindOf()))
      .catch((err: Error) => console.error('[sale] sweep failed:', err.message));
  }, intervalMs);
  rt.timer.unref();
}
