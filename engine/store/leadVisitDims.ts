/**
 * A lead's copy of its visit's dimensions (migration 026): the brand, campaign, source, landing
 * page and device the console's money and lead cuts split a lead by, kept on the lead row so the
 * overview reads each lead once instead of looking its visit up as well. The copy holds nothing
 * the visit does not (no click id, no referrer), and a visit is never changed once stored, so the
 * copy cannot go stale.
 *
 * The columns are null while the lead's visit is not known — a lead posted with no visit id, or
 * with one the traffic writer has not stored yet (the visit's first events are queued and may be
 * written after the lead). Readers then take the lead's own brand and device and no campaign,
 * source or landing page, exactly as a lead without a visit. The copy is made:
 * - when the lead is stored and its visit already is (insertLead);
 * - when the visit is stored after the lead (writeTraffic, for the visits it stored);
 * - by migration 026 for the leads stored before it.
 * On PostgreSQL a lead and its visit committed at the same moment by two instances do not see
 * each other's rows: each side copies again after its commit, and whichever commits last finds
 * both (copyVisitDims is idempotent: it fills only leads still waiting).
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './db';
import type { VisitRow } from './trafficRules';

/** The lead's columns and the visit's columns they copy. */
export const LEAD_VISIT_DIMS = [
  ['visit_brand', 'brand'],
  ['visit_campaign', 'campaign'],
  ['visit_source', 'source'],
  ['visit_landing', 'landing_path'],
  ['visit_device', 'device'],
] as const satisfies readonly (readonly [string, keyof VisitRow])[];

export type LeadVisitDims = Record<(typeof LEAD_VISIT_DIMS)[number][0], string>;

/** The copy of a visit's dimensions a lead of that visit stores. */
export function visitDimsOf(v: Pick<VisitRow, (typeof LEAD_VISIT_DIMS)[number][1]>): LeadVisitDims {
  return Object.fromEntries(LEAD_VISIT_DIMS.map(([lead, visit]) => [lead, v[visit]])) as LeadVisitDims;
}

/**
 * Copies the visit's dimensions onto the leads of `ids` (visit ids, or lead ids) that still wait
 * for them and whose visit is stored: one UPDATE … FROM per 500 ids (SQLite and PostgreSQL alike).
 * The leads waiting are found through a partial index of them alone (migration 026), so a batch of
 * new visits with no lead costs a probe of a near-empty index each.
 */
export async function copyVisitDims(db: Kysely<Database>, by: 'visit' | 'lead', ids: readonly string[]): Promise<number> {
  let copied = 0;
  const key = by === 'visit' ? sql.ref('leads.visit_id') : sql.ref('leads.id');
  const set = sql.join(LEAD_VISIT_DIMS.map(([lead, visit]) => sql`${sql.ref(lead)} = ${sql.ref(`v.${visit}`)}`));
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const done = await sql`UPDATE leads SET ${set} FROM traffic_visits AS v
      WHERE v.id = leads.visit_id AND leads.visit_id IS NOT NULL AND leads.visit_brand IS NULL AND ${key} IN (${sql.join(part)})`.execute(db);
    copied += Number(done.numAffectedRows ?? 0);
  }
  return copied;
}
