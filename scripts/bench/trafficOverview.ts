/**
 * The console overview's query (engine/traffic/funnelQuery.ts overview: the funnel, four
 * breakdowns and the daily chart, from the hourly rollups) over 1,000,000 raw events and 20,000
 * leads spread over 90 days, on SQLite (and PostgreSQL when BENCH_TRAFFIC_PG_URL names a scratch
 * database). The data comes from the demo generator once and is kept in
 * data/bench/traffic-1000000-20000.sqlite for later runs. Budget: under 500 ms (median of 5, after one warm-up).
 * Standalone: npx tsx scripts/bench/trafficOverview.ts
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { writeDemoTraffic } from '../../engine/traffic/demoTraffic';
import { overview } from '../../engine/traffic/funnelQuery';
import type { BenchContext, Row } from './context';

const EVENTS = Number(process.env.BENCH_TRAFFIC_EVENTS ?? 1_000_000);
const LEADS = Number(process.env.BENCH_TRAFFIC_LEADS ?? 20_000);
const DAYS = 90;
const NOW = new Date('2026-01-01T00:00:00.000Z');
const BUDGET_MS = 500;

async function filled(db: Store): Promise<void> {
  await migrateStore(db);
  await writeDemoTraffic(db, { events: EVENTS, leads: LEADS, days: DAYS, seed: 1, now: NOW });
}

async function timeOverview(db: Store): Promise<{ medianMs: number; rollupRows: number }> {
  const f = { from: new Date(NOW.getTime() - DAYS * 86_400_000).toISOString(), to: NOW.toISOString() };
  await overview(db, f);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await overview(db, f);
    times.push(performance.now() - t);
  }
  const { n } = await db
    .selectFrom('traffic_hourly')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return { medianMs: times.sort((a, b) => a - b)[2]!, rollupRows: Number(n) };
}

const row = (kind: string, r: { medianMs: number; rollupRows: number }): Row => ({
  figure: `console overview over ${EVENTS.toLocaleString('en-US')} events and ${LEADS.toLocaleString('en-US')} leads (${kind})`,
  measured: `${r.medianMs.toFixed(0)} ms (${r.rollupRows.toLocaleString('en-US')} rollup rows)`,
  budget: `< ${BUDGET_MS} ms`,
  ok: r.medianMs < BUDGET_MS,
  note: 'engine/traffic/funnelQuery.ts overview() over 90 days, no filter: funnel, breakdowns by campaign, source, landing page and state, daily series; median of 5 after a warm-up; data by engine/traffic/demoTraffic.ts (seed 1)',
});

export async function trafficOverviewRows(ctx?: Pick<BenchContext, 'root'>): Promise<Row[]> {
  const dir = join(ctx?.root ?? process.cwd(), 'data/bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `traffic-${EVENTS}-${LEADS}.sqlite`);
  if (!existsSync(file)) {
    const partial = `${file}.partial`;
    rmSync(partial, { force: true });
    const db = openStore({ url: '', file: partial });
    await filled(db);
    await db.destroy();
    for (const ext of ['-wal', '-shm']) rmSync(partial + ext, { force: true });
    renameSync(partial, file);
  }
  const rows: Row[] = [];
  const sqlite = openStore({ url: '', file });
  try {
    await migrateStore(sqlite); // a file from an older run gets the newer rollup tables (filled from the hourly ones)
    rows.push(row('SQLite', await timeOverview(sqlite)));
  } finally {
    await sqlite.destroy();
  }
  const pgUrl = process.env.BENCH_TRAFFIC_PG_URL;
  if (pgUrl) {
    const pg = openStore({ url: pgUrl });
    try {
      const { n } = await migrateStore(pg).then(() =>
        pg
          .selectFrom('traffic_events')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow(),
      );
      if (Number(n) < EVENTS) await writeDemoTraffic(pg, { events: EVENTS, leads: LEADS, days: DAYS, seed: 1, now: NOW });
      rows.push(row('PostgreSQL', await timeOverview(pg)));
    } finally {
      await pg.destroy();
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await trafficOverviewRows()) console.log(`${r.figure}  ${r.measured}  [budget ${r.budget}] ${r.ok ? '✓' : '✗ over budget'}`);
}
