/** What this process sells with: its buyers and its duplicate window, from the environment. */
import type { Buyer } from '../../schemas/buyer.types';
import { isDeployment } from '../keys/sealing';
import { buyerSecret } from './buyers';
import { applyRevision, buyerRevision, liveBuyers } from './buyerRevisions';
import { demoBuyer, DEMO_LENDER_ID, DEMO_SECRET } from './demoLender';
import { DUPLICATE_WINDOW_MS } from './runner';

/** The duplicate window: SALE_DUPLICATE_WINDOW_DAYS (default 30). */
export const duplicateWindowMs = (env: Record<string, string | undefined> = process.env): number => {
  const days = Number(env.SALE_DUPLICATE_WINDOW_DAYS);
  return Number.isFinite(days) && days >= 0 && env.SALE_DUPLICATE_WINDOW_DAYS ? days * 24 * 3600_000 : DUPLICATE_WINDOW_MS;
};

/**
 * A whole-number setting, or its default with the reason when the value is not a whole number of
 * at least `min`: Number("twenty") is NaN, and a concurrency of NaN runs no sale at all (every lead
 * waits, unsold, forever), an interval of NaN fires every millisecond.
 */
export function wholeSetting(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  unit = '',
): { value: number; problem?: string } {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return { value: fallback };
  if (/^\d{1,9}$/.test(raw) && Number(raw) >= min) return { value: Number(raw) };
  return { value: fallback, problem: `${name} must be a whole number${unit}, ${min} or more, not ${JSON.stringify(env[name])}: using ${fallback}` };
}

/** SALE_CONCURRENCY: sales run at once per process (default 20). */
export const saleConcurrency = (env: Record<string, string | undefined> = process.env) => wholeSetting(env, 'SALE_CONCURRENCY', 20, 1);

/** SALE_SWEEP_INTERVAL_MS: how often abandoned or never-started sales are taken up (default 5000). */
export const saleSweepIntervalMs = (env: Record<string, string | undefined> = process.env) =>
  wholeSetting(env, 'SALE_SWEEP_INTERVAL_MS', 5000, 10, ' of milliseconds');

/**
 * The buyers of this process: the valid buyer documents whose secret is set, each with its newest
 * console revision (engine/sale/buyerRevisions.ts). With none, outside
 * a deployment, the built-in demo lender (served by this server) so a fresh checkout shows the
 * whole loop; a deployment never uses it.
 */
export function saleBuyers(env: Record<string, string | undefined> = process.env): { buyers: Buyer[]; secretOf: (b: Buyer) => string | undefined } {
  const docs = [...liveBuyers(env).buyers.values()].map((b) => b.buyer).filter((b) => buyerSecret(b, env));
  // Set by server.mjs: the server reaches itself on loopback (/api/ answers on any host). A process
  // that serves nothing (npm run worker, the tests) has no demo lender.
  const demoOrigin = env.LOANSITES_DEMO_LENDER_ORIGIN;
  if (!docs.length && !isDeployment(env) && demoOrigin) {
    const demo = applyRevision(demoBuyer(demoOrigin), buyerRevision(DEMO_LENDER_ID));
    return { buyers: [demo], secretOf: (b) => (b.id === demo.id ? DEMO_SECRET : undefined) };
  }
  return { buyers: docs, secretOf: (b) => buyerSecret(b, env) };
}
