/**
 * The sale in this process: startSale runs a stored lead's sale in the background (POST
 * /api/leads does not wait for it), at most SALE_CONCURRENCY at a time; a sweep every few
 * seconds takes up sales nobody holds — never started (the process died between storing the
 * lead and starting its sale) or abandoned (their worker died: the lease ran out).
 */
import { onShutdown } from '../process/shutdown.mjs';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Buyer } from '../../schemas/buyer.types';
import { isDeployment, leadKeyring } from '../keys/sealing';

import { wakeLeadWorker } from './leadWorker';
import { getCatalog } from '../site/catalog';
import { getStore, storeKindOf, type Store, type StoreKind } from '../store/db';
import { buyerSecret, getBuyers } from '../sale/buyers';
import { demoBuyer, DEMO_SECRET } from '../sale/demoLender';
import { runSale, DUPLICATE_WINDOW_MS, type SaleDeps } from '../sale/runner';
import { adoptLeadsWithoutSale, dueSales, ensureSale } from '../store/sales';

/** The current lead key: contact hashes and sale tokens are keyed with it (a rotated key starts a new duplicate window). */
const leadKey = (): Buffer => leadKeyring().current.key;

const contactKeyOf = (key: Buffer): Buffer => createHmac('sha256', key).update('loansites contact hashes v1').digest();

/** The key of the contact hashes: derived from the lead key, so one secret guards both. */
export const contactKey = (): Buffer => contactKeyOf(leadKey());

/** The contact-hash keys of every lead key still in the keyring, current first: opt-outs match under all of them. */
export const contactKeys = (): Buffer[] => [...leadKeyring().byId.values()].map(contactKeyOf);

/** The duplicate window: SALE_DUPLICATE_WINDOW_DAYS (default 30). */
export const duplicateWindowMs = (env: Record<string, string | undefined> = process.env): number => {
  const days = Number(env.SALE_DUPLICATE_WINDOW_DAYS);
  return Number.isFinite(days) && days >= 0 && env.SALE_DUPLICATE_WINDOW_DAYS ? days * 24 * 3600_000 : DUPLICATE_WINDOW_MS;
};

/**
 * The buyers of this process: the valid buyer documents whose secret is set. With none, outside
 * a deployment, the built-in demo lender (served by this server) so a fresh checkout shows the
 * whole loop; a deployment never uses it.
 */
export function saleBuyers(env: Record<string, string | undefined> = process.env): { buyers: Buyer[]; secretOf: (b: Buyer) => string | undefined } {
  const docs = [...getBuyers(env).buyers.values()].map((b) => b.buyer).filter((b) => buyerSecret(b, env));
  // Set by server.mjs: the server reaches itself on loopback (/api/ answers on any host). A process
  // that serves nothing (npm run worker, the tests) has no demo lender.
  const demoOrigin = env.LOANSITES_DEMO_LENDER_ORIGIN;
  if (!docs.length && !isDeployment(env) && demoOrigin) {
    const demo = demoBuyer(demoOrigin);
    return { buyers: [demo], secretOf: (b) => (b.id === demo.id ? DEMO_SECRET : undefined) };
  }
  return { buyers: docs, secretOf: (b) => buyerSecret(b, env) };
}

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
const concurrency = () => Math.max(1, Number(process.env.SALE_CONCURRENCY ?? 20));

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

/** One sweep: adopt leads without a sale (the last day) and queue the sales nobody holds. */
export async function sweepSales(db: Store, kind: StoreKind): Promise<void> {
  const now = new Date();
  await adoptLeadsWithoutSale(db, new Date(now.getTime() - 24 * 3600_000), now);
  const rt = runtime();
  for (const id of await dueSales(db, kind, now, 50)) if (!rt.queue.includes(id)) rt.queue.push(id);
  pump();
}

export const saleWorkerEnabled = (): boolean => process.env.SALE_WORKER !== 'off';

/** Starts this process's sweep once (instrumentation.ts). */
export function ensureSaleSweep(intervalMs = Number(process.env.SALE_SWEEP_INTERVAL_MS ?? 5000)): void {
  const rt = runtime();
  if (rt.timer || rt.stopped) return;
  rt.timer = setInterval(() => {
    getStore()
      .then((db) => sweepSales(db, storeKindOf()))
      .catch((err: Error) => console.error('[sale] sweep failed:', err.message));
  }, intervalMs);
  rt.timer.unref();
}

/**
 * The borrower's ticket to the sale's status: the lead id and a MAC of it under the lead key.
 * Unguessable without the key, the same on a retry of the same request, nothing to store.
 */
export function saleToken(leadId: string): string {
  return `${leadId}.${createHmac('sha256', leadKey()).update(`sale-status:${leadId}`).digest('base64url').slice(0, 32)}`;
}

/** The lead id of a genuine token, else undefined. */
export function leadOfSaleToken(token: string): string | undefined {
  const m = /^(ld_[a-z0-9]{6,40})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!m) return undefined;
  const expected = Buffer.from(saleToken(m[1]!));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given) ? m[1] : undefined;
}
