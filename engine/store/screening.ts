/**
 * Screening results in the store (migration 018): one row per lead — score, band, reason codes,
 * routing, when an operator reviewed it (028) and the velocity keys (short hashes, never the
 * values) — and the velocity counts.
 */
import type { Store } from './db';

export interface LeadScreeningTable {
  lead_id: string;
  created_at: string;
  score: number;
  band: string;
  /** reason codes, comma-separated */
  codes: string;
  routing: string;
  /** when an operator released or rejected the held lead (ISO); null until then, and for reviews before migration 028 */
  reviewed_at: string | null;
  phone_key: string;
  email_key: string;
  ip_key: string;
  device_key: string;
}

export type VelocityKeys = Pick<LeadScreeningTable, 'phone_key' | 'email_key' | 'ip_key' | 'device_key'>;
const KEY_KINDS = { phone: 'phone_key', email: 'email_key', ip: 'ip_key', device: 'device_key' } as const;

/** Earlier screened requests with each key, in the hour and the day before `now`. */
export async function velocityCounts(db: Store, keys: VelocityKeys, now: Date): Promise<Record<keyof typeof KEY_KINDS, { hour: number; day: number }>> {
  const hourAgo = new Date(now.getTime() - 3600_000).toISOString();
  const dayAgo = new Date(now.getTime() - 24 * 3600_000).toISOString();
  const entries = await Promise.all(
    (Object.entries(KEY_KINDS) as [keyof typeof KEY_KINDS, keyof VelocityKeys][]).map(async ([kind, column]) => {
      if (!keys[column]) return [kind, { hour: 0, day: 0 }] as const;
      const times = await db
        .selectFrom('lead_screening')
        .select('created_at')
        .where(column, '=', keys[column])
        .where('created_at', '>=', dayAgo)
        .limit(100)
        .execute();
      return [kind, { hour: times.filter((t) => t.created_at >= hourAgo).length, day: times.length }] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<keyof typeof KEY_KINDS, { hour: number; day: number }>;
}

export async function saveScreening(db: Store, row: Omit<LeadScreeningTable, 'reviewed_at'>): Promise<void> {
  await db
    .insertInto('lead_screening')
    .values(row)
    .onConflict((c) => c.column('lead_id').doNothing())
    .execute();
}

export const screeningOf = (db: Store, leadId: string): Promise<LeadScreeningTable | undefined> =>
  db.selectFrom('lead_screening').selectAll().where('lead_id', '=', leadId).executeTakeFirst();

/** Adds codes the sale finds (a duplicate, an opt-out) to the lead's screening. */
export async function addScreeningCodes(db: Store, leadId: string, codes: readonly string[]): Promise<void> {
  const row = await screeningOf(db, leadId);
  if (!row || !codes.length) return;
  const all = [...new Set([...row.codes.split(',').filter(Boolean), ...codes])];
  await db
    .updateTable('lead_screening')
    .set({ codes: all.join(',') })
    .where('lead_id', '=', leadId)
    .execute();
}

/** What an operator's review of a held lead came to. */
export type ReviewOutcome = 'released' | 'rejected' | 'not-held' | 'sale-running';

/**
 * An operator's decision on a lead screening held for review. Released: its routing becomes
 * "released" and its sale, which ended held, is pending again, for the sale worker to run once.
 * Rejected: "rejected", and the sale stays unsold. Either way the review's time is kept: a
 * released lead's sale is bounded from it (engine/sale/runner.ts). Both only from "hold", in one transaction, so
 * of two reviews at once (two operators, a double submit) exactly one counts and a lead goes to
 * the sale at most once. A lead whose held sale is still being decided is left for a moment
 * later ("sale-running"); one whose sale ended otherwise (its contact opted out) is not held.
 */
export async function reviewHeldLead(db: Store, leadId: string, decision: 'release' | 'reject', now: Date): Promise<ReviewOutcome> {
  const routing = decision === 'release' ? 'released' : 'rejected';
  return db
    .transaction()
    .execute(async (trx) => {
      const changed = await trx
        .updateTable('lead_screening')
        .set({ routing, reviewed_at: now.toISOString() })
        .where('lead_id', '=', leadId)
        .where('routing', '=', 'hold')
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 0) return 'not-held' as const;
      const sale = await trx.selectFrom('lead_sales').select('status').where('lead_id', '=', leadId).executeTakeFirst();
      // rolled back: the routing stays "hold" for a later review
      if (!sale || sale.status === 'pending') throw new ReviewUndone('sale-running');
      if (sale.status !== 'unsold' && sale.status !== 'duplicate') throw new ReviewUndone('not-held');
      const reason = `${routing} by review at ${now.toISOString()}`;
      if (decision === 'release')
        await trx
          .updateTable('lead_sales')
          .set({ status: 'pending', claimed_by: null, claimed_until: null, decided_at: null, reason })
          .where('lead_id', '=', leadId)
          .execute();
      else await trx.updateTable('lead_sales').set({ reason }).where('lead_id', '=', leadId).execute();
      return routing;
    })
    .catch((err: unknown) => {
      if (err instanceof ReviewUndone) return err.outcome;
      throw err;
    });
}

class ReviewUndone extends Error {
  constructor(readonly outcome: 'sale-running' | 'not-held') {
    super(`review undone: ${outcome}`);
  }
}
