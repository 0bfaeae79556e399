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
