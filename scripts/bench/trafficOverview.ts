/**
 * The console overview as an operator opens it (engine/console/overviewData.ts: the funnel, the
 * breakdowns, the lead cuts by buyer, sub-id, landing page and loan kind, the daily series, and
 * the costs — an ad cost per campaign and day is added for the bench), over the last 30 of 90 days
 * of demo traffic with its leads, sales, returns and the buyers' pings, unfiltered and by each
 * filter the overview has: on SQLite over 1,000,000 raw events and 20,000 leads, on PostgreSQL
 * the same by default, and over 10,000,000 events and 100,000 leads (the budget's size) with
 * BENCH_OVERVIEW_PG_EVENTS=10000000 BENCH_OVERVIEW_PG_LEADS=100000.
 *
 * The data is engine/traffic/demoTraffic.ts's (seed 1) loaded in bulk (./trafficData.ts: the same
 * rows the traffic writer stores, rollups included): on SQLite once, kept in
 * data/bench/traffic-bulk-{events}-{leads}.sqlite for later runs; on PostgreSQL (started for the
 * run on BENCH_PG_PORT, default 5480) by COPY, its server's folder kept in data/bench/postgres-{events}-{leads}. BENCH_TRAFFIC_EVENTS / _LEADS and
 * BENCH_OVERVIEW_PG_EVENTS / _LEADS choose other sizes; BENCH_OVERVIEW_POSTGRES=off times SQLite
 * alone, BENCH_OVERVIEW_SQLITE=off PostgreSQL alone. When both stores hold the same data, PostgreSQL
 * must answer exactly as SQLite does. Without PostgreSQL installed its rows say so and are skipped.
 *
 * Each store: one warm-up of every question, then BENCH_OVERVIEW_ROUNDS rounds (default 20), each
 * asking every question once in turn, so a burst of load on the shared machine touches every
 * question alike. Budgets: SQLite median ≤ 150 ms, PostgreSQL p95 ≤ 300 ms.
 * Standalone: npx tsx scripts/bench/trafficOverview.ts
 */
import { isDeepStrictEqual } from 'node:util';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { refreshPlannerStatistics } from '../../engine/store/traffic';
import type { FunnelFilter } from '../../engine/traffic/funnelQuery';
import type { DemoOptions } from '../../engine/traffic/demoTraffic';
import { overviewData, type OverviewAsk } from '../../engine/console/overviewData';
import { PG_BIN, startPostgres } from '../../tests/support/postgres';
import type { BenchContext, Row } from './context';
import { loadDemoTraffic } from './trafficData';

const size = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SIZES = {
  SQLite: { events: size('BENCH_TRAFFIC_EVENTS', 1_000_000), leads: size('BENCH_TRAFFIC_LEADS', 20_000) },
  // The budget's size is 10,000,000 events and 100,000 leads (BENCH_OVERVIEW_PG_EVENTS / _LEADS): its first load takes ~25 minutes and
  // ~13 GB, so a plain run loads the SQLite row's size, and then also checks PostgreSQL answers exactly as SQLite does.
  PostgreSQL: { events: size('BENCH_OVERVIEW_PG_EVENTS', 1_000_000), leads: size('BENCH_OVERVIEW_PG_LEADS', 20_000) },
};
const ROUNDS = size('BENCH_OVERVIEW_ROUNDS', 20);
const DAYS = 90;
const NOW = new Date('2026-01-01T00:00:00.000Z');
/** the overview's range: the last 30 days of the data */
const SHOWN_DAYS = 30;
const BUDGET = { SQLite: { ms: 150, share: 0.5, name: 'median' }, PostgreSQL: { ms: 300, share: 0.95, name: 'p95' } } as const;
type Kind = keyof typeof BUDGET;

const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const ASK: Omit<OverviewAsk, 'dims'> = {
  from: day(NOW.getTime() - SHOWN_DAYS * 86_400_000),
  to: day(NOW.getTime() - 86_400_000),
  zone: '',
  grain: 'day',
  compare: false,
  currency: 'USD',
};

/** The questions timed: the whole overview, and filtered as the console filters it (each filter alone, and two together). */
const QUESTIONS: { name: string; dims: Omit<FunnelFilter, 'from' | 'to'> }[] = [
  { name: 'no filter', dims: {} },
  { name: 'brand', dims: { brand: 'ipaydayloans' } },
  { name: 'campaign', dims: { campaign: 'tx-payday' } },
  { name: 'source', dims: { source: 'google' } },
  { name: 'device', dims: { device: 'mobile' } },
  { name: 'landing page', dims: { landing: '/payday-loans' } },
  { name: 'brand + landing page', dims: { brand: 'ipaydayloans', landing: '/payday-loans' } },
];

const demo = (s: { events: number; leads: number }): DemoOptions => ({
  ...s,
  days: DAYS,
  seed: 1,
  now: NOW,
  idBase: 0,
  onProgress: (done) => {
    if (done.visits % 500_000 === 0) console.log(`[bench] loading: ${done.events.toLocaleString('en-US')} events, ${done.leads.toLocaleString('en-US')} leads`);
  },
});

/** An ad cost for every campaign of the data and every day (once): the overview's cost columns then have figures to compute. */
async function addCosts(db: Store): Promise<void> {
  if (await db.selectFrom('ad_costs').select('day').limit(1).executeTakeFirst()) return;
  const campaigns = await db.selectFrom('traffic_daily').select('key').distinct().where('dim', '=', 'campaign').where('key', '!=', '').execute();
  const rows = [];
  for (let d = 0; d < DAYS; d++)
    for (const c of campaigns)
      rows.push({
        day: day(NOW.getTime() - (d + 1) * 86_400_000),
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

const at = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
const median = (xs: number[]) =>
  at(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

/** Every question once (the warm-up, and the answers), then ROUNDS rounds of every question in turn. */
async function timeQuestions(db: Store): Promise<{ times: Map<string, number[]>; answers: Map<string, unknown>; loads: number[] }> {
  const answers = new Map<string, unknown>();
  for (const q of QUESTIONS) answers.set(q.name, await overviewData(db, { ...ASK, dims: q.dims }));
  const times = new Map<string, number[]>(QUESTIONS.map((q) => [q.name, []]));
  const loads: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const q of QUESTIONS) {
      const t = performance.now();
      await overviewData(db, { ...ASK, dims: q.dims });
      times.get(q.name)!.push(performance.now() - t);
    }
    loads.push(loadavg()[0]!);
  }
  return { times, answers, loads };
}

const figure = (kind: Kind, name: string) => {
  const s = SIZES[kind];
  return `console overview, ${SHOWN_DAYS} days with costs, over ${s.events.toLocaleString('en-US')} events and ${s.leads.toLocaleString('en-US')} leads (${kind}, ${name})`;
};

const NOTE =
  'engine/console/overviewData.ts over the last 30 of 90 days: funnel, breakdowns by campaign, source, landing page and state, lead cuts by buyer, sub-id, landing page and loan kind, daily series, costs (money from lead_sales and lead_returns joined to leads and visits, offers from sale_events); ' +
  `one warm-up, then ${ROUNDS} rounds of every question in turn; data: engine/traffic/demoTraffic.ts (seed 1) loaded in bulk by scripts/bench/trafficData.ts; PostgreSQL 15 started for the run`;

async function rowsOf(kind: Kind, db: Store, expected?: Map<string, unknown>): Promise<{ rows: Row[]; answers: Map<string, unknown> }> {
  const { times, answers, loads } = await timeQuestions(db);
  const rows: Row[] = [];
  for (const q of QUESTIONS) {
    if (expected && !isDeepStrictEqual(expected.get(q.name), answers.get(q.name)))
      throw new Error(`${kind} answered the overview (${q.name}) differently from SQLite`);
    const sorted = [...times.get(q.name)!].sort((a, b) => a - b);
    const b = BUDGET[kind];
    const judged = at(sorted, b.share);
    const measured = `p50 ${at(sorted, 0.5).toFixed(0)} ms, p95 ${at(sorted, 0.95).toFixed(0)} ms (load average ${median(loads).toFixed(1)}, ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)})`;
    rows.push({ figure: figure(kind, q.name), measured, budget: `${b.name} ≤ ${b.ms} ms`, ok: judged <= b.ms });
    console.log(`[bench] ${rows[rows.length - 1]!.figure}: ${measured}`);
  }
  return { rows, answers };
}

const sameSize = SIZES.SQLite.events === SIZES.PostgreSQL.events && SIZES.SQLite.leads === SIZES.PostgreSQL.leads;

async function sqliteFile(root: string): Promise<string> {
  const dir = join(root, 'data/bench');
  mkdirSync(dir, { recursive: true });
  const { events, leads } = SIZES.SQLite;
  const file = join(dir, `traffic-bulk-${events}-${leads}.sqlite`);
  if (!existsSync(file)) {
    const partial = `${file}.partial`;
    rmSync(partial, { force: true });
    const db = openStore({ url: '', file: partial });
    try {
      await migrateStore(db);
      const t = performance.now();
      const made = await loadDemoTraffic(db, { file: partial }, demo(SIZES.SQLite));
      await addCosts(db);
      console.log(`[bench] SQLite filled in ${((performance.now() - t) / 1000).toFixed(0)} s: ${JSON.stringify(made)}`);
    } finally {
      await db.destroy();
    }
    for (const ext of ['-wal', '-shm']) rmSync(partial + ext, { force: true });
    renameSync(partial, file);
  }
  return file;
}

export async function trafficOverviewRows(ctx?: Pick<BenchContext, 'root'>): Promise<Row[]> {
  const rows: Row[] = [];
  let answers: Map<string, unknown> | undefined;
  if (process.env.BENCH_OVERVIEW_SQLITE !== 'off') {
    const sqlite = openStore({ url: '', file: await sqliteFile(ctx?.root ?? process.cwd()) });
    try {
      await migrateStore(sqlite); // a file from an older run gets the newer tables and indexes
      await refreshPlannerStatistics(sqlite); // and the statistics the retention job keeps
      const done = await rowsOf('SQLite', sqlite);
      rows.push(...done.rows);
      answers = done.answers;
    } finally {
      await sqlite.destroy();
    }
  }
  if (process.env.BENCH_OVERVIEW_POSTGRES === 'off') return rows.length ? [{ ...rows[0]!, note: NOTE }, ...rows.slice(1)] : rows;
  if (!existsSync(join(PG_BIN, 'initdb'))) {
    const why = `skipped: PostgreSQL 15 is not installed (${join(PG_BIN, 'initdb')} is missing; bash scripts/ensure-services.sh installs it)`;
    console.log(`[bench] console overview on PostgreSQL ${why}`);
    rows.push({ figure: figure('PostgreSQL', 'every question'), measured: why });
    rows[0]!.note = NOTE;
    return rows;
  }
  // The loaded server's folder is kept for later runs, as the SQLite file is (a folder without the mark of a finished load is started over).
  const { events, leads } = SIZES.PostgreSQL;
  const keep = join(ctx?.root ?? process.cwd(), `data/bench/postgres-${events}-${leads}`);
  const loaded = join(keep, 'loaded');
  if (!existsSync(loaded)) rmSync(keep, { recursive: true, force: true });
  const postgres = await startPostgres({ port: size('BENCH_PG_PORT', 5480), keep });
  try {
    const pg = openStore({ url: postgres.url });
    try {
      await migrateStore(pg);
      if (!existsSync(loaded)) {
        const t = performance.now();
        const made = await loadDemoTraffic(pg, { url: postgres.url }, demo(SIZES.PostgreSQL));
        await addCosts(pg);
        console.log(`[bench] PostgreSQL filled in ${((performance.now() - t) / 1000).toFixed(0)} s: ${JSON.stringify(made)}`);
        writeFileSync(loaded, JSON.stringify(made));
      }
      rows.push(...(await rowsOf('PostgreSQL', pg, sameSize ? answers : undefined)).rows);
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
