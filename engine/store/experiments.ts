/**
 * Experiment exposures in the store: written with the traffic batch that brought them (the
 * visit's page views, engine/store/traffic.ts writeTraffic), with a daily rollup of visitors and
 * their stages, read per variant with the visit's conversions. A visit is exposed once per
 * experiment (primary key; a repeat is a no-op).
 *
 * Conversions are the visit's, whatever page they happened on: a stored lead or a submitted
 * form is the visit's funnel stage (traffic_visit_stages), a sale the sale records of the visit's
 * leads (sold: sold or later returned; revenue: what sold leads kept, the sale's price).
 */
import { sql, type Transaction } from 'kysely';
import type { Database, Store } from './db';
import { isPostgresStore } from './trafficPartitions';

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

export interface ExperimentDailyTable {
  brand: string;
  experiment: string;
  variant: string;
  day: string;
  campaign: string;
  source: string;
  device: string;
  visitors: number;
  submitted: number;
  stored: number;
}

/** The funnel stages the rollup counts per exposed visit. */
const COUNTED = ['submitted', 'stored'] as const;
type Counted = (typeof COUNTED)[number];
const isCounted = (stage: string): stage is Counted => (COUNTED as readonly string[]).includes(stage);
/** The daily rollup's primary key. */
export const DAILY_KEY = ['brand', 'experiment', 'day', 'variant', 'campaign', 'source', 'device'] as const;

/**
 * In a traffic batch's transaction (engine/store/traffic.ts writeTraffic): stores the batch's
 * exposures with their visits' dimensions (`dims`, by visit id) and keeps the daily rollup — a
 * new exposure adds a visitor (and the stages its visit already reached), a stage a visit reaches
 * for the first time (`marks`, as this batch marked them) adds to each of the visit's earlier
 * exposures. Rollup rows are upserted in key order, as the traffic rollups are.
 */
export async function writeExperimentCounts(
  trx: Transaction<Database>,
  exposures: readonly ExposureInput[],
  marks: readonly { visit_id: string; stage: string }[],
  dims: ReadonlyMap<string, { campaign: string; source: string; device: string }>,
): Promise<void> {
  const reached = marks.filter((m) => isCounted(m.stage));
  if (!exposures.length && !reached.length) return;
  const deltas = new Map<string, ExperimentDailyTable>();
  const add = (x: ExperimentExposuresTable, field: 'visitors' | Counted) => {
    const key = JSON.stringify(DAILY_KEY.map((k) => x[k]));
    const row = deltas.get(key) ?? { ...pick(x), visitors: 0, submitted: 0, stored: 0 };
    row[field] += 1;
    deltas.set(key, row);
  };
  // a visit's first exposure to an experiment is the one kept, as the primary key keeps it across
  // batches (a Map set again would keep the last)
  const firsts = new Map<string, ExposureInput>();
  for (const x of exposures) if (!firsts.has(`${x.visitId}\n${x.experiment}`)) firsts.set(`${x.visitId}\n${x.experiment}`, x);
  const rows = [...firsts.values()].map((x): ExperimentExposuresTable => {
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
  const fresh = new Set<string>();
  for (let i = 0; i < rows.length; i += 200) {
    const stored = await trx
      .insertInto('experiment_exposures')
      .values(rows.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['visit_id', 'experiment']).doNothing())
      .returning(['visit_id', 'experiment'])
      .execute();
    for (const r of stored) fresh.add(`${r.visit_id}\n${r.experiment}`);
  }
  const inserted = rows.filter((x) => fresh.has(`${x.visit_id}\n${x.experiment}`));
  if (inserted.length) {
    // the stages the visits had already reached (this batch's marks included)
    const stages = await trx
      .selectFrom('traffic_visit_stages')
      .select(['visit_id', 'stage'])
      .where('visit_id', 'in', [...new Set(inserted.map((x) => x.visit_id))])
      .where('stage', 'in', [...COUNTED])
      .execute();
    for (const x of inserted) {
      add(x, 'visitors');
      for (const st of stages) if (st.visit_id === x.visit_id && isCounted(st.stage)) add(x, st.stage);
    }
  }
  if (reached.length) {
    const earlier = await trx
      .selectFrom('experiment_exposures')
      .selectAll()
      .where('visit_id', 'in', [...new Set(reached.map((m) => m.visit_id))])
      .execute();
    for (const x of earlier) {
      if (fresh.has(`${x.visit_id}\n${x.experiment}`)) continue;
      for (const m of reached) if (m.visit_id === x.visit_id && isCounted(m.stage)) add(x, m.stage);
    }
  }
  const sorted = [...deltas.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
  for (let i = 0; i < sorted.length; i += 200)
    await trx
      .insertInto('experiment_daily')
      .values(sorted.slice(i, i + 200))
      .onConflict((oc) =>
        oc.columns([...DAILY_KEY]).doUpdateSet((eb) => ({
          visitors: eb(eb.ref('experiment_daily.visitors'), '+', eb.ref('excluded.visitors')),
          submitted: eb(eb.ref('experiment_daily.submitted'), '+', eb.ref('excluded.submitted')),
          stored: eb(eb.ref('experiment_daily.stored'), '+', eb.ref('excluded.stored')),
        })),
      )
      .execute();
}

const pick = (x: ExperimentExposuresTable) => ({
  brand: x.brand,
  experiment: x.experiment,
  variant: x.variant,
  day: x.day,
  campaign: x.campaign,
  source: x.source,
  device: x.device,
});

/** The daily rollup made again from the exposures and the visits' stages (after rows are taken out, as the demo's reset does). */
export async function rebuildExperimentDaily(trx: Transaction<Database>): Promise<void> {
  await trx.deleteFrom('experiment_daily').execute();
  const stage = (name: Counted) => sql`SUM(CASE WHEN x.visit_id IN (SELECT visit_id FROM traffic_visit_stages WHERE stage = ${name}) THEN 1 ELSE 0 END)`;
  await sql`
    INSERT INTO experiment_daily (brand, experiment, variant, day, campaign, source, device, visitors, submitted, stored)
    SELECT x.brand, x.experiment, x.variant, x.day, x.campaign, x.source, x.device, COUNT(*), ${stage('submitted')}, ${stage('stored')}
    FROM experiment_exposures x
    GROUP BY x.brand, x.experiment, x.variant, x.day, x.campaign, x.source, x.device`.execute(trx);
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
  /**
   * The instants [from, to) those days begin and end at when they are an operator's days, not
   * UTC's: visitors exposed in the range, whose edge days (UTC's, partly in the range) are read
   * from the exposures themselves.
   */
  within?: { from: string; to: string };
  campaign?: string;
  source?: string;
  device?: string;
}

/**
 * Each variant's visitors and conversions: visitors and stages from the daily rollup (a few rows
 * a day whatever the traffic), sales from the sale records of the brand's leads whose visit was
 * exposed (few, next to the visits), joined by the exposure's key.
 */
export async function variantTotals(db: Store, f: ExposureFilter): Promise<VariantTotals[]> {
  const edges = edgesOf(f);
  let daily = db
    .selectFrom('experiment_daily as x')
    .select((eb) => [
      'x.variant',
      eb.fn.sum<number | string>('x.visitors').as('visitors'),
      eb.fn.sum<number | string>('x.submitted').as('submitted'),
      eb.fn.sum<number | string>('x.stored').as('stored'),
    ])
    .where('x.brand', '=', f.brand)
    .where('x.experiment', '=', f.experiment)
    .where('x.day', '>=', edges.wholeFrom)
    .where('x.day', '<=', edges.wholeTo)
    .groupBy('x.variant');
  if (f.campaign) daily = daily.where('x.campaign', '=', f.campaign);
  if (f.source) daily = daily.where('x.source', '=', f.source);
  if (f.device) daily = daily.where('x.device', '=', f.device);
  const filters = [
    sql`x.brand = ${f.brand}`,
    sql`x.experiment = ${f.experiment}`,
    ...(f.within ? [sql`x.created_at >= ${f.within.from}`, sql`x.created_at < ${f.within.to}`] : [sql`x.day >= ${f.fromDay}`, sql`x.day <= ${f.toDay}`]),
    ...(f.campaign ? [sql`x.campaign = ${f.campaign}`] : []),
    ...(f.source ? [sql`x.source = ${f.source}`] : []),
    ...(f.device ? [sql`x.device = ${f.device}`] : []),
  ];
  // per sold visit, its exposure's variant by the exposure's key (one index look-up each: sold
  // visits are few next to exposures; a join would read every exposure)
  const salesQuery = sql<{ variant: string; sold: number | string; revenue: number | string | null; squares: number | string | null }>`
    SELECT t.variant AS variant, COUNT(*) AS sold, SUM(t.revenue) AS revenue, SUM(t.revenue * t.revenue) AS squares
    FROM (
      SELECT (SELECT x.variant FROM experiment_exposures x WHERE x.visit_id = m.visit_id AND ${sql.join(filters, sql` AND `)}) AS variant, m.revenue AS revenue
      FROM (
        SELECT l.visit_id AS visit_id, SUM(CASE WHEN s.status = 'sold' THEN COALESCE(s.price_cents, 0) ELSE 0 END) AS revenue
        FROM leads l JOIN lead_sales s ON s.lead_id = l.id
        WHERE l.brand = ${f.brand} AND l.visit_id IS NOT NULL AND l.created_at >= ${f.within ? f.within.from.slice(0, 10) : f.fromDay} AND s.status IN ('sold', 'returned')
        GROUP BY l.visit_id
      ) m
    ) t
    GROUP BY t.variant`;
  // PostgreSQL's planner prices the thousands of look-ups above past its JIT threshold, and
  // compiling the query costs more than running it: off for this statement's transaction
  const sales = isPostgresStore(db)
    ? await db.transaction().execute(async (trx) => {
        await sql`SET LOCAL jit = off`.execute(trx);
        return salesQuery.execute(trx);
      })
    : await salesQuery.execute(db);
  // (the sold visits of no exposure in the filter make a group of their own, without a variant)
  const sold = new Map(sales.rows.filter((r) => r.variant !== null).map((r) => [r.variant, r]));
  const counted = new Map<string, { visitors: number; submitted: number; stored: number }>();
  const rows = [...(await daily.execute()), ...(await edgeCounts(db, f, edges.days))];
  for (const r of rows) {
    const c = counted.get(r.variant) ?? { visitors: 0, submitted: 0, stored: 0 };
    c.visitors += Number(r.visitors);
    c.submitted += Number(r.submitted);
    c.stored += Number(r.stored);
    counted.set(r.variant, c);
  }
  return [...counted].map(([variant, r]) => {
    const s = sold.get(variant);
    return {
      variant,
      visitors: r.visitors,
      submitted: r.submitted,
      stored: r.stored,
      sold: Number(s?.sold ?? 0),
      revenueCents: Number(s?.revenue ?? 0),
      revenueSquares: Number(s?.squares ?? 0),
    };
  });
}

const dayAfter = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00.000Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * The UTC days the daily rollup answers whole ([wholeFrom, wholeTo], both included), and the UTC
 * days only partly in an operator's range, whose exposures are read one by one (two at most).
 */
export function edgesOf(f: Pick<ExposureFilter, 'fromDay' | 'toDay' | 'within'>): { wholeFrom: string; wholeTo: string; days: string[] } {
  if (!f.within) return { wholeFrom: f.fromDay, wholeTo: f.toDay, days: [] };
  const midnight = (t: string) => t.slice(10) === 'T00:00:00.000Z';
  const { from, to } = f.within;
  const days = [...new Set([...(midnight(from) ? [] : [from.slice(0, 10)]), ...(midnight(to) ? [] : [to.slice(0, 10)])])];
  return { wholeFrom: midnight(from) ? from.slice(0, 10) : dayAfter(from.slice(0, 10), 1), wholeTo: dayAfter(to.slice(0, 10), -1), days };
}

/** The visitors exposed within the range on its edge days, with the stages their visits reached, as the daily rollup counts them. */
async function edgeCounts(db: Store, f: ExposureFilter, days: readonly string[]) {
  if (!days.length || !f.within) return [];
  const reached = (stage: Counted) =>
    sql<number>`case when exists (select 1 from traffic_visit_stages t where t.visit_id = x.visit_id and t.stage = ${stage}) then 1 else 0 end`;
  let q = db
    .selectFrom('experiment_exposures as x')
    .select((eb) => [
      'x.variant',
      eb.fn.countAll<number | string>().as('visitors'),
      eb.fn.sum<number | string>(reached('submitted')).as('submitted'),
      eb.fn.sum<number | string>(reached('stored')).as('stored'),
    ])
    .where('x.day', 'in', [...days])
    .where('x.brand', '=', f.brand)
    .where('x.experiment', '=', f.experiment)
    .where('x.created_at', '>=', f.within.from)
    .where('x.created_at', '<', f.within.to)
    .groupBy('x.variant');
  if (f.campaign) q = q.where('x.campaign', '=', f.campaign);
  if (f.source) q = q.where('x.source', '=', f.source);
  if (f.device) q = q.where('x.device', '=', f.device);
  return q.execute();
}
