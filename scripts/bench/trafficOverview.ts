/**
 * The console overview's query (engine/traffic/funnelQuery.ts overview: the funnel, four
 * breakdowns and the daily chart, the stages from the rollups and the money from the sale
 * records) over 1,000,000 raw events and 20,000 leads with their sales and returns, spread over
 * 90 days, unfiltered and filtered, on SQLite and on PostgreSQL. The data comes from the demo
 * generator once and is kept in data/bench/traffic-sales-1000000-20000.sqlite for later runs;
 * PostgreSQL is started for the run (as tests/support/postgres.ts does) and gets the same rows
 * copied in (./trafficCopy.ts), and must answer exactly as SQLite does. Without PostgreSQL
 * installed its rows say so and are skipped. Budget: under 500 ms each (median of 5, after one warm-up).
 * Standalone: npx tsx scripts/bench/trafficOverview.ts
 */
import { isDeepStrictEqual } from 'node:util';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { writeDemoTraffic } from '../../engine/traffic/demoTraffic';
import { overview, type FunnelFilter } from '../../engine/traffic/funnelQuery';
import { PG_BIN, startPostgres } from '../../tests/support/postgres';
import type { BenchContext, Row } from './context';
import { copySqliteToPostgres } from './trafficCopy';

const EVENTS = Number(process.env.BENCH_TRAFFIC_EVENTS ?? 1_000_000);
const LEADS = Number(process.env.BENCH_TRAFFIC_LEADS ?? 20_000);
const DAYS = 90;
const NOW = new Date('2026-01-01T00:00:00.000Z');
const BUDGET_MS = 500;
const RANGE = { from: new Date(NOW.getTime() - DAYS * 86_400_000).toISOString(), to: NOW.toISOString() };

/** The questions timed: the whole overview, and filtered as the console filters it. */
const QUESTIONS: { name: string; filter: FunnelFilter }[] = [
  { name: 'no filter', filter: RANGE },
  { name: 'campaign', filter: { ...RANGE, campaign: 'tx-payday' } },
  { name: 'device', filter: { ...RANGE, device: 'mobile' } },
  { name: 'brand + landing page', filter: { ...RANGE, brand: 'ipaydayloans', landing: '/payday-loans' } },
];

async function timed(db: Store, f: FunnelFilter): Promise<{ medianMs: number; answer: unknown }> {
  const answer = await overview(db, f);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await overview(db, f);
    times.push(performance.now() - t);
  }
  return { medianMs: times.sort((a, b) => a - b)[2]!, answer };
}

const figure = (kind: string, name: string) =>
  `console overview over ${EVENTS.toLocaleString('en-US')} events and ${LEADS.toLocaleString('en-US')} leads (${kind}, ${name})`;

const NOTE =
  'engine/traffic/funnelQuery.ts overview() over 90 days: funnel, breakdowns by campaign, source, landing page and state, daily series (money from lead_sales and lead_returns joined to leads and visits); median of 5 after a warm-up; data by engine/traffic/demoTraffic.ts (seed 1); PostgreSQL 15 started for the run with the same rows copied in, its answers checked equal to SQLite’s';

async function rowsOf(kind: string, db: Store, expected?: Map<string, unknown>): Promise<{ rows: Row[]; answers: Map<string, unknown> }> {
  const rows: Row[] = [];
  const answers = new Map<string, unknown>();
  for (const q of QUESTIONS) {
    const r = await timed(db, q.filter);
    answers.set(q.name, r.answer);
    if (expected && !isDeepStrictEqual(expected.get(q.name), r.answer)) throw new Error(`${kind} answered the overview (${q.name}) differently from SQLite`);
    rows.push({ figure: figure(kind, q.name), measured: `${r.medianMs.toFixed(0)} ms`, budget: `< ${BUDGET_MS} ms`, ok: r.medianMs < BUDGET_MS });
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
    const done = await rowsOf('SQLite', sqlite);
    rows.push(...done.rows);
    answers = done.answers;
  } finally {
    await sqlite.destroy();
  }
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
