/**
 * Experiment exposures in the store: written with the traffic batch that brought them (the
 * visit's page views, engine/store/traffic.ts writeTraffic), read per variant with the visit's
 * conversions. A visit is exposed once per experiment (primary key; a repeat is a no-op).
 *
 * Conversions are the visit's, whatever page they happened on: a stored lead or a submitted
 * form is the visit's funnel stage (traffic_visit_stages), a sale the sale records of the visit's
 * leads (sold: sold or later returned; revenue: what sold leads kept, the sale's price).
 */
import { sql, type Transaction } from 'kysely';
import type { Database, Store } from './db';

export interface ExperimentExposuresTable {
  visit_id: string;
  experiment: string;
  brand: string;
  variant: string;
  /** the visit's day of exposure (UTC, YYYY-MM-DD) */
  day: string;
  campaign: string;
  source: string;
  device: string;
  created_at: string;
}

/** An exposure as the events API finds it (the visit's dimensions are added when written). */
export interface ExposureInput {
  visitId: string;
  brand: string;
  experiment: string;
  variant: string;
  createdAt: string;
}

/** Writes exposures inside a traffic batch's transaction, with their visits' dimensions (`dims`, by visit id). */
export async function writeExposures(
  trx: Transaction<Database>,
  exposures: readonly ExposureInput[],
  dims: ReadonlyMap<string, { campaign: string; source: string; device: string }>,
): Promise<void> {
  const rows = [...new Map(exposures.map((x) => [`${x.visitId}\n${x.experiment}`, x])).values()].map((x) => {
    const d = dims.get(x.visitId);
    return {
      visit_id: x.visitId,
      experiment: x.experiment,
      brand: x.brand,
      variant: x.variant,
      day: x.createdAt.slice(0, 10),
      campaign: d?.campaign ?? '',
      source: d?.source ?? '',
      device: d?.device ?? '',
      created_at: x.createdAt,
    };
  });
  for (let i = 0; i < rows.length; i += 200)
    await trx
      .insertInto('experiment_exposures')
      .values(rows.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['visit_id', 'experiment']).doNothing())
      .execute();
}

/** One variant's visitors and what they did. */
export interface VariantTotals {
  variant: string;
  visitors: number;
  submitted: number;
  stored: number;
  sold: number;
  revenueCents: number;
  /** the sum of each visit's revenue squared (cents²), for the revenue's variance */
  revenueSquares: number;
}

export interface ExposureFilter {
  brand: string;
  experiment: string;
  /** days, both included (YYYY-MM-DD) */
  fromDay: string;
  toDay: string;
  campaign?: string;
  source?: string;
  device?: string;
}

/**
 * Each variant's visitors and conversions. One pass over the experiment's exposures in the range:
 * the stage look-ups are `IN (subquery)` sets and the revenue a grouped join, which both stores
 * answer with one hash (or temporary index) each rather than a look-up per visitor.
 */
export async function variantTotals(db: Store, f: ExposureFilter): Promise<VariantTotals[]> {
  const filters = [
    sql`x.brand = ${f.brand}`,
    sql`x.experiment = ${f.experiment}`,
    sql`x.day >= ${f.fromDay}`,
    sql`x.day <= ${f.toDay}`,
    ...(f.campaign ? [sql`x.campaign = ${f.campaign}`] : []),
    ...(f.source ? [sql`x.source = ${f.source}`] : []),
    ...(f.device ? [sql`x.device = ${f.device}`] : []),
  ];
  const stage = (name: string) => sql`CASE WHEN x.visit_id IN (SELECT visit_id FROM traffic_visit_stages WHERE stage = ${name}) THEN 1 ELSE 0 END`;
  const rows = await sql<{ variant: string; visitors: number | string; submitted: number | string; stored: number | string; sold: number | string; revenue: number | string | null; squares: number | string | null }>`
    SELECT t.variant AS variant, COUNT(*) AS visitors, SUM(t.submitted) AS submitted, SUM(t.stored) AS stored, SUM(t.sold) AS sold,
      SUM(t.revenue) AS revenue, SUM(t.revenue * t.revenue) AS squares
    FROM (
      SELECT x.variant AS variant, ${stage('submitted')} AS submitted, ${stage('stored')} AS stored,
        CASE WHEN m.visit_id IS NULL THEN 0 ELSE 1 END AS sold, COALESCE(m.revenue, 0) AS revenue
      FROM experiment_exposures x
      LEFT JOIN (
        SELECT l.visit_id AS visit_id, SUM(CASE WHEN s.status = 'sold' THEN COALESCE(s.price_cents, 0) ELSE 0 END) AS revenue
        FROM leads l JOIN lead_sales s ON s.lead_id = l.id
        WHERE l.visit_id IS NOT NULL AND s.status IN ('sold', 'returned')
        GROUP BY l.visit_id
      ) m ON m.visit_id = x.visit_id
      WHERE ${sql.join(filters, sql` AND `)}
    ) t
    GROUP BY t.variant`.execute(db);
  return rows.rows.map((r) => ({
    variant: r.variant,
    visitors: Number(r.visitors),
    submitted: Number(r.submitted),
    stored: Number(r.stored),
    sold: Number(r.sold),
    revenueCents: Number(r.revenue ?? 0),
    revenueSquares: Number(r.squares ?? 0),
  }));
}
