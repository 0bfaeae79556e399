/**
 * The console overview as an operator opens it (engine/console/overviewData.ts: the funnel, the
 * breakdowns, the lead cuts by buyer, sub-id, landing page and loan kind, the daily series, and
 * the costs — an ad cost per campaign and day is added for the bench), over the last 30 days of
 * 1,000,000 raw events and 20,000 leads with their sales, returns and the buyers' pings, spread
 * over 90 days, unfiltered and filtered, on SQLite and on PostgreSQL. The data comes from the demo
 * generator once and is kept in data/bench/traffic-sales-{events}-{leads}.sqlite for later runs
 * (BENCH_TRAFFIC_EVENTS and BENCH_TRAFFIC_LEADS choose other sizes; BENCH_OVERVIEW_POSTGRES=off
 * times SQLite alone); PostgreSQL is started for the
 * run (as tests/support/postgres.ts does) and gets the same rows copied in (./trafficCopy.ts), and
 * must answer exactly as SQLite does. Without PostgreSQL installed its rows say so and are skipped.
 * Budgets: SQLite ≤ 150 ms (median of 10), PostgreSQL p95 ≤ 300 ms (of 20), after one warm-up.
 * Standalone: npx tsx scripts/bench/trafficOverview.ts
 */
import { isDeepStrictEqual } from 'node:util';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { ensureEventPartitions } from '../../engine/store/trafficPartitions';
import { writeDemoTraffic } from '../../engine/traffic/demoTraffic';
import type { FunnelFilter } from '../../engine/traffic/funnelQuery';
import { overviewData } from '../../engine/console/overviewData';
import { PG_BIN, startPostgres } from '../../tests/support/postgres';
import type { BenchContext, Row } from './context';
import { copySqliteToPostgres } from './trafficCopy';

const EVENTS = Number(process.env.BENCH_TRAFFIC_EVENTS ?? 1_000_000);
const LEADS = Number(process.env.BENCH_TRAFFIC_LEADS ?? 20_000);
const DAYS = 90;
const NOW = new Date('2026-01-01T00:00:00.000Z');
/** the overview's range: the last 30 days of the data */
const SHOWN_DAYS = 30;
const BUDGET = { SQLite: { ms: 150, runs: 10, share: 0.5, name: 'median' }, PostgreSQL: { ms: 300, runs: 20, share: 0.95, name: 'p95' } } as const;
const RANGE = { from: new Date(NOW.getTime() - SHOWN_DAYS * 86_400_000).toISOString(), to: NOW.toISOString() };

/** The questions timed: the whole overview, and filtered as the console filters it. */
const QUESTIONS: { name: string; filter: FunnelFilter }[] = [
  { name: 'no filter', filter: RANGE },
  { name: 'campaign', filter: { ...RANGE, campaign: 'tx-payday' } },
  { name: 'device', filter: { ...RANGE, device: 'mobile' } },
  { name: 'brand + landing page', filter: { ...RANGE, brand: 'ipaydayloans', landing: '/payday-loans' } },
];

const day = (iso: string) => iso.slice(0, 10);

async function timed(db: Store, f: FunnelFilter, kind: keyof typeof BUDGET): Promise<{ ms: number; medianMs: number; answer: unknown }> {
  const { from, to, ...dims } = f;
  const ask = {
    from: day(from),
    to: day(new Date(Date.parse(to) - 86_400_000).toISOString()),
    dims,
    zone: '',
    grain: 'day' as const,
    compare: false,
    currency: 'USD',
  };
  const answer = await overviewData(db, ask);
  const times: number[] = [];
  for (let i = 0; i < BUDGET[kind].runs; i++) {
    const t = performance.now();
    await overviewData(db, ask);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.min(times.length - 1, Math.ceil(share * times.length) - 1)]!;
  return { ms: at(BUDGET[kind].share), medianMs: at(0.5), answer };
}

/** An ad cost for every campaign of the data and every day (once): the overview's cost columns then have figures to compute. */
async function addCosts(db: Store): Promise<void> {
  if (await db.selectFrom('ad_costs').select('day').limit(1).executeTakeFirst()) return;
  const campaigns = await db.selectFrom('traffic_daily').select('key').distinct().where('dim', '=', 'campaign').where('key', '!=', '').execute();
  const rows = [];
  for (let d = 0; d < DAYS; d++)
    for (const c of campaigns)
      rows.push({
        day: day(new Date(NOW.getTime() - (d + 1) * 86_400_000).toISOString()),
        source: 'generic',
        campaign: c.key,
        cost_cents: 1000 + d,
        currency: 'USD',
        clicks: 20,
        impressions: 400,
        imported_at: NOW.toISOString(),
        imported_by: 'bench',
      });
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('ad_costs')
      .values(rows.slice(i, i + 500))
      .execute();
}

const figure = (kind: string, name: string) =>
  `console overview, ${SHOWN_DAYS} days with costs, over ${EVENTS.toLocaleString('en-US')} events and ${LEADS.toLocaleString('en-US')} leads (${kind}, ${name})`;

const NOTE =
  'engine/console/overviewData.ts over the last 30 of 90 days: funnel, breakdowns by campaign, source, landing page and state, lead cuts by buyer, sub-id, landing page and loan kind, daily series, costs (money from lead_sales and lead_returns joined to leads and visits, offers from sale_events); SQLite median of 10, PostgreSQL p95 of 20, after a warm-up; data by engine/traffic/demoTraffic.ts (seed 1); PostgreSQL 15 started for the run with the same rows copied in, its answers checked equal to SQLite’s';

async function rowsOf(kind: keyof typeof BUDGET, db: Store, expected?: Map<string, unknown>): Promise<{ rows: Row[]; answers: Map<string, unknown> }> {
  const rows: Row[] = [];
  const answers = new Map<string, unknown>();
  for (const q of QUESTIONS) {
    const r = await timed(db, q.filter, kind);
    answers.set(q.name, r.answer);
    if (expected && !isDeepStrictEqual(expected.get(q.name), r.answer)) throw new Error(`${kind} answered the overview (${q.name}) differently from SQLite`);
    const b = BUDGET[kind];
    const measured = `${r.ms.toFixed(0)} ms (${b.name}${b.name === 'median' ? '' : `; median ${r.medianMs.toFixed(0)} ms`}; load average ${loadavg()[0]!.toFixed(1)})`;
    rows.push({ figure: figure(kind, q.name), measured, budget: `≤ ${b.ms} ms`, ok: r.ms <= b.ms });
    console.log(`[bench] ${rows[rows.length - 1]!.figure}: ${rows[rows.length - 1]!.measured}`);
  }
  return { rows, answers };
}

async function benchFile(root: string): Promise<string> {
  const dir = join(root, 'data/bench');
  mkdirSync(dir, { recursive: true });
  // "sales": the generator writes sale records since the overview reads its money there (an older file has none)
  const file = join(dir, `traffic-sales-${EVENTS}-${LEADS}.sqlite`);
  if (!existsSync(file)) {
    const partial = `${file}.partial`;
    rmSync(partial, { force: true });
    const db = openStore({ url: '', file: partial });
    await migrateStore(db);
    await writeDemoTraffic(db, { events: EVENTS, leads: LEADS, days: DAYS, seed: 1, now: NOW });
    await db.destroy();
    for (const ext of ['-wal', '-shm']) rmSync(partial + ext, { force: true });
    renameSync(partial, file);
  }
  return file;
}

export async function trafficOverviewRows(ctx?: Pick<BenchContext, 'root'>): Promise<Row[]> {
  const file = await benchFile(ctx?.root ?? process.cwd());
  const rows: Row[] = [];
  const sqlite = openStore({ url: '', file });
  let answers: Map<string, unknown>;
  try {
    await migrateStore(sqlite); // a file from an older run gets the newer rollup tables (filled from the hourly ones)
    await addCosts(sqlite);
    const done = await rowsOf('SQLite', sqlite);
    rows.push(...done.rows);
    answers = done.answers;
  } finally {
    await sqlite.destroy();
  }
  if (process.env.BENCH_OVERVIEW_POSTGRES === 'off') return [{ ...rows[0]!, note: NOTE }, ...rows.slice(1)];
  if (!existsSync(join(PG_BIN, 'initdb'))) {
    const why = `skipped: PostgreSQL 15 is not installed (${join(PG_BIN, 'initdb')} is missing; bash scripts/ensure-services.sh installs it)`;
    console.log(`[bench] console overview on PostgreSQL ${why}`);
    rows[0]!.note = NOTE;
    return [...rows, { figure: figure('PostgreSQL', 'every question'), measured: why }];
  }
  const postgres = await startPostgres();
  try {
    const pg = openStore({ url: postgres.url });
    try {
      await migrateStore(pg);
      // the raw events are partitioned by day on PostgreSQL: each day of the data needs its partition first
      const src = openStore({ url: '', file });
      const days = await src
        .selectFrom('traffic_events')
        .select(sql<string>`substr(created_at, 1, 10)`.as('day'))
        .distinct()
        .execute();
      await src.destroy();
      await ensureEventPartitions(
        pg,
        days.map((d) => d.day),
      );
      const t = performance.now();
      const copied = await copySqliteToPostgres(file, postgres.url);
      console.log(`[bench] PostgreSQL filled in ${((performance.now() - t) / 1000).toFixed(0)} s: ${JSON.stringify(copied)}`);
      rows.push(...(await rowsOf('PostgreSQL', pg, answers)).rows);
    } finally {
      await pg.destroy();
    }
  } finally {
    await postgres.stop();
  }
  rows[0]!.note = NOTE;
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await trafficOverviewRows())
    console.log(`${r.figure}  ${r.measured}  ${r.budget ? `[budget ${r.budget}] ${r.ok ? '✓' : '✗ over budget'}` : ''}`);
}
