/** The sale's tables as Kysely sees them (created by engine/store/migrations/005_sales.ts). */

/**
 * pending: not decided yet (claimed_until says whether a worker holds it); the others are final.
 * returned: sold, then returned by its buyer within its return window (the sale reversed: no revenue).
 */
export type SaleStatus = 'pending' | 'sold' | 'unsold' | 'duplicate' | 'suppressed' | 'returned';
export const FINAL_STATUSES: readonly SaleStatus[] = ['sold', 'unsold', 'duplicate', 'suppressed', 'returned'];

export interface LeadSalesTable {
  lead_id: string;
  status: SaleStatus;
  /** 1 when the phone or email was seen within the duplicate window */
  duplicate: number;
  buyer_id: string | null;
  price_cents: number | null;
  redirect_url: string | null;
  buyer_lead_id: string | null;
  /** why it is unsold (for the operator) */
  reason: string | null;
  /** the buyer's calendar day and month at the sale, in its time zone: what caps count */
  buyer_day: string | null;
  buyer_month: string | null;
  claimed_by: string | null;
  claimed_until: string | null;
  /** how many times a worker took the sale up (more than 1: it resumed after a restart) */
  runs: number;
  created_at: string;
  decided_at: string | null;
}

export type SaleStep = 'eligibility' | 'ping' | 'post' | 'deliver' | 'decision' | 'return';
/**
 * sending: a ping or a post went out and its answer is not recorded yet (a post out is what a
 * resumed sale asks again); interrupted: a ping whose answer was never recorded, its run having
 * stopped or lost the sale while it was out (settled so by the run that took the sale up).
 */
export type SaleOutcome =
  'skipped' | 'bid' | 'no-bid' | 'sending' | 'interrupted' | 'accepted' | 'refused' | 'unconfirmed' | 'queued' | 'sold' | 'unsold' | 'returned';

/**
 * What an interrupted ping's row says (settleInterruptedPings, engine/store/sales.ts), before the
 * ping's id. Kept here, in a module that imports nothing, so the console's pages may read it.
 */
export const PING_INTERRUPTED = "its answer was not recorded: the sale's worker stopped or lost the sale while the ping was out";

export interface SaleEventsTable {
  id: string;
  lead_id: string;
  at: string;
  buyer_id: string;
  step: SaleStep;
  outcome: SaleOutcome;
  price_cents: number | null;
  latency_ms: number | null;
  detail: string;
}

export interface ContactHashesTable {
  hash: string;
  lead_id: string;
  created_at: string;
}

export interface SuppressionsTable {
  hash: string;
  created_at: string;
}

/** A lead its buyer returned (migration 007): the reason code, the buyer's note and the price given back. */
export interface LeadReturnsTable {
  lead_id: string;
  buyer_id: string;
  reason: string;
  note: string;
  price_cents: number;
  created_at: string;
}
