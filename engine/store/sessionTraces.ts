/** Session traces in the store: recorded once per uuid, listed by time. */
import type { Store } from './db';

export interface SessionTrace {
  uuid: string;
  brand: string;
  source1: string;
  source2: string;
  clickId: string;
  gaClientId: string;
  userAgent: string;
  ip: string;
  /** ISO 8601 UTC, server time */
  createdAt: string;
}

/**
 * Stores a trace unless its uuid is stored already (INSERT … ON CONFLICT DO NOTHING: one row
 * however often, and however concurrently, the same uuid arrives). True when this call stored it.
 */
export async function recordSessionTrace(db: Store, row: SessionTrace): Promise<boolean> {
  const result = await db
    .insertInto('session_traces')
    .values({
      uuid: row.uuid,
      brand: row.brand,
      source1: row.source1,
      source2: row.source2,
      click_id: row.clickId,
      ga_client_id: row.gaClientId,
      user_agent: row.userAgent,
      ip: row.ip,
      created_at: row.createdAt,
    })
    .onConflict((oc) => oc.column('uuid').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Traces stored at or after `since`, oldest first (at most `limit`; optionally one brand's). */
export async function listSessionTraces(db: Store, opts: { since: Date; limit?: number; brand?: string }): Promise<SessionTrace[]> {
  let query = db.selectFrom('session_traces').selectAll().where('created_at', '>=', opts.since.toISOString());
  if (opts.brand) query = query.where('brand', '=', opts.brand);
  const rows = await query
    .orderBy('created_at')
    .orderBy('uuid')
    .limit(opts.limit ?? 10_000)
    .execute();
  return rows.map((r) => ({
    uuid: r.uuid,
    brand: r.brand,
    source1: r.source1,
    source2: r.source2,
    clickId: r.click_id,
    gaClientId: r.ga_client_id,
    userAgent: r.user_agent,
    ip: r.ip,
    createdAt: r.created_at,
  }));
}
