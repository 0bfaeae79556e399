/**
 * One sale in progress, as every step of runSale (engine/sale/runner.ts) and of the posting
 * (posting.ts) sees it, and how its decision is recorded.
 */
import type { Buyer } from '../../schemas/buyer.types';
import type { Postback } from '../../schemas/brand.types';
import type { Store } from '../store/db';
import type { LeadsTable } from '../store/leads';
import { addEvent, finishSale, settleEvent, type SaleDecision, type SaleHold } from '../store/sales';
import type { SaleLead } from './eligibility';
import { postbacksFor, queuePostbacks } from './postbacks';

export interface SaleDeps {
  /** every buyer the sale may use (secrets present) */
  buyers: readonly Buyer[];
  secretOf: (buyer: Buyer) => string | undefined;
  /** key of the contact hashes */
  contactKey: Buffer;
  /** every key an opt-out may have been hashed under (the keyring's); default: contactKey alone */
  suppressionKeys?: readonly Buffer[];
  worker: string;
  fetcher?: typeof fetch;
  now?: () => Date;
  duplicateWindowMs?: number;
  deadlineMs?: number;
  leaseMs?: number;
  /** the brand's conversion postbacks (brand file "postbacks"), queued when a lead is sold */
  postbacksOf?: (brand: string) => readonly Postback[] | undefined;
}

export type SaleResult = Pick<SaleDecision, 'status' | 'buyerId' | 'priceCents' | 'redirectUrl' | 'reason'>;

/** What every step of one sale reads: the store, the lead, the worker's settings and the clock. */
export interface SaleRun {
  db: Store;
  leadId: string;
  deps: SaleDeps;
  now: () => Date;
  /** the claim's count of runs: this run's hold on the sale (SaleHold), told from a later run by a worker of the same name */
  runs: number;
}

/** This run's hold on the sale, which every write deciding the sale or sending the lead out checks. */
export const holdOf = ({ deps, runs }: SaleRun): SaleHold => ({ worker: deps.worker, runs });

/** A sale past its checks: the stored lead, what the contact check found, and when the sale must end. */
export interface OpenSale extends SaleRun {
  stored: LeadsTable;
  lead: SaleLead;
  duplicate: boolean;
  /** the contact's opt-out hashes, checked again when a buyer accepts */
  suppressionHashes: string[];
  /** how an unsold lead is recorded: a duplicate stays one */
  unsoldStatus: 'duplicate' | 'unsold';
  deadline: number;
}

/** What a post came to: sold (the recorded result), refused (the sale goes on), or the buyer's decision still unknown. */
export type Posted = SaleResult | 'refused' | { unconfirmed: string };

/** A post that did not go out: the sale is no longer this run's (taken over after its lease ran out, or decided). */
export const TAKEN_OVER = 'taken-over';

/** A price in cents. A buyer's price is in whole cents (answers.ts refuses a finer one); the rounding only undoes the float error of the product (10.07 * 100 is 1007.0000000000001). */
export const cents = (dollars: number): number => Math.round(dollars * 100);

const decisionEvent = ({ leadId, now }: SaleRun, d: SaleDecision) => ({
  lead_id: leadId,
  at: now().toISOString(),
  buyer_id: d.buyerId ?? '',
  step: 'decision' as const,
  outcome: d.status === 'sold' ? ('sold' as const) : ('unsold' as const),
  price_cents: d.priceCents ?? null,
  detail: d.reason ?? d.status,
});

/**
 * The decision on the sale and on the timeline, with a sold lead's postbacks, in one transaction:
 * a sale recorded is a conversion reported, once. Nothing written when the sale is no longer this
 * run's (its worker stalled past its lease and another took the sale up): the timeline keeps the
 * one decision that counts.
 */
export async function recordDecision(run: SaleRun, stored: LeadsTable | undefined, d: SaleDecision): Promise<SaleResult> {
  const { db, leadId, deps, now } = run;
  const postbacks = d.status === 'sold' && stored ? postbacksFor(deps.postbacksOf?.(stored.brand), stored) : [];
  await db.transaction().execute(async (trx) => {
    if (!(await finishSale(trx, leadId, deps.worker, d, now(), run.runs))) return;
    await addEvent(trx, decisionEvent(run, d));
    await queuePostbacks(trx, leadId, postbacks, now());
  });
  return d;
}

/**
 * A buyer's accept recorded as the sale, with its post's row settled `accepted`, its decision on
 * the timeline and its postbacks, all or nothing: false, and nothing written, when the sale is no
 * longer this worker's to decide (its lease ran out while the post was out, and another worker
 * took the sale up or decided it). One transaction, so a sale is never recorded sold beside a post
 * still `sending` (the worker stopping between the two writes: a decided sale is never resumed).
 */
export async function recordAccept(
  run: SaleRun,
  stored: LeadsTable,
  d: SaleDecision & { status: 'sold' },
  post: { eventId: string; latencyMs: number },
): Promise<boolean> {
  const { db, leadId, deps, now } = run;
  const postbacks = postbacksFor(deps.postbacksOf?.(stored.brand), stored);
  return db.transaction().execute(async (trx) => {
    if (!(await finishSale(trx, leadId, deps.worker, d, now(), run.runs))) return false;
    await settleEvent(trx, post.eventId, { outcome: 'accepted', latency_ms: post.latencyMs, price_cents: d.priceCents ?? null, detail: d.redirectUrl ?? '' });
    await addEvent(trx, decisionEvent(run, d));
    await queuePostbacks(trx, leadId, postbacks, now());
    return true;
  });
}
