/**
 * The overview bench's data, loaded in bulk: the very visits, events, leads and sales
 * `writeDemoTraffic` would write (engine/traffic/demoTraffic.ts demoVisits, the same seed giving the
 * same rows), but streamed into the tables instead of going through the traffic writer's upserts
 * batch by batch — which took ~40 minutes for 1,000,000 events. PostgreSQL takes the rows by
 * COPY FROM STDIN (one psql per table, fed as the rows are made; raw events into their day
 * partitions), SQLite by prepared inserts in large transactions. The rollups (hourly, daily, daily
 * pairs) are then summed in the database from the raw visits and events, by the rules the writer
 * follows (engine/store/traffic.ts hourlyIncrements and addToRollups: a new visit counts under
 * "visit", an event unless it repeats a stage; the daily tables are the hourly one by day and
 * dimension). tests/unit/bench-traffic-data.test.ts checks, on both stores, that the result equals
 * what the writer stores for the same visits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { Store } from '../../engine/store/db';
import { eventRow, refreshPlannerStatistics } from '../../engine/store/traffic';
import { stageOf } from '../../engine/store/trafficRules';
import { visitDimsOf } from '../../engine/store/leadVisitDims';
import { ensureEventPartitions, isPostgresStore } from '../../engine/store/trafficPartitions';
import { DAILY_DIMS } from '../../engine/store/migrations/006_traffic_daily';
import { PAIR_DIMS, PAIR_FILTER_DIMS } from '../../engine/store/migrations/009_traffic_daily_pairs';
import { demoIdBase, demoSaleRows, demoVisits, type DemoOptions, type DemoVisit, type DemoSale, type DemoTotals } from '../../engine/traffic/demoTraffic';
import { PG_BIN } from '../../tests/support/postgres';

type Row = Record<string, string | number | null>;

/** Where the rows go: a table at a time, each row an object of its columns. */
interface Sink {
  /** a promise when the sink wants the producer to wait (PostgreSQL's pipes are full) */
  add(table: string, row: Row): Promise<void> | undefined;
  end(): Promise<void>;
}

/** SQLite: one prepared insert per table (its columns from the first row), committed every `every` rows. */
function sqliteSink(file: string, every = 50_000): Sink {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const pending = new Map<string, Row[]>();
  let n = 0;
  const inserts = new Map<string, Database.Statement>();
  const insertOf = (table: string, row: Row) => {
    let s = inserts.get(table);
    if (!s) {
      const cols = Object.keys(row);
      s = db.prepare(`INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
      inserts.set(table, s);
    }
    return s;
  };
  const commit = db.transaction(() => {
    for (const [table, rows] of pending) for (const r of rows) insertOf(table, r).run(r);
    pending.clear();
  });
  return {
    add(table, row) {
      let rows = pending.get(table);
      if (!rows) pending.set(table, (rows = []));
      rows.push(row);
      if (++n % every === 0) commit();
      return undefined;
    },
    async end() {
      commit();
      db.close();
    },
  };
}

/** COPY's text format: tab-separated, \N for null, backslash escapes. */
const copyField = (v: string | number | null): string =>
  v === null
    ? '\\N'
    : typeof v === 'number'
      ? String(v)
      : v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));

/** PostgreSQL: a psql per table running COPY … FROM STDIN, fed through its stdin in chunks of ~1 MB. */
function postgresSink(url: string): Sink {
  interface Copy {
    psql: ChildProcess;
    cols: string[];
    buffered: string[];
    size: number;
    done: Promise<void>;
  }
  const copies = new Map<string, Copy>();
  const open = (table: string, row: Row): Copy => {
    const cols = Object.keys(row);
    const copy = `COPY "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) FROM STDIN`;
    // The tables are filled at once, each by its own session: a sale may arrive before its lead, so the
    // foreign keys' triggers are off for these sessions (replica role; tests/unit/bench-traffic-data.test.ts checks the rows).
    const argv = ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', 'SET session_replication_role = replica', '-c', copy];
    const psql = spawn(join(PG_BIN, 'psql'), argv, { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    psql.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    psql.stdin!.on('error', () => undefined); // psql's exit code says what went wrong
    const done = new Promise<void>((resolve, reject) =>
      psql.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`COPY into ${table} failed (psql ${code}): ${stderr.trim()}`)))),
    );
    done.catch(() => undefined);
    const c = { psql, cols, buffered: [], size: 0, done };
    copies.set(table, c);
    return c;
  };
  const write = (c: Copy): Promise<void> | undefined => {
    const chunk = c.buffered.join('');
    c.buffered = [];
    c.size = 0;
    if (c.psql.stdin!.write(chunk)) return undefined;
    // a psql that died never drains: its exit (an error) ends the wait
    return Promise.race([new Promise<void>((resolve) => c.psql.stdin!.once('drain', resolve)), c.done]);
  };
  return {
    add(table, row) {
      const c = copies.get(table) ?? open(table, row);
      const line = `${c.cols.map((k) => copyField(row[k] ?? null)).join('\t')}\n`;
      c.buffered.push(line);
      c.size += line.length;
      return c.size >= 1 << 20 ? write(c) : undefined;
    },
    async end() {
      for (const c of copies.values()) {
        if (c.size) await write(c);
        c.psql.stdin!.end();
      }
      await Promise.all([...copies.values()].map((c) => c.done));
    },
  };
}

/** A demo visit's raw rows as the writer stores them: its events take the visit's dimensions, a stage's first event marks it, a later one is a repeat. */
function* rawRows(visit: DemoVisit): Generator<[string, Row]> {
  const v = visit.visit;
  yield ['traffic_visits', { ...v }];
  const marked = new Set<string>();
  for (const e of visit.events) {
    const stage = stageOf(e);
    const first = stage !== '' && !marked.has(stage);
    if (first) {
      marked.add(stage);
      yield ['traffic_visit_stages', { visit_id: e.visitId, stage, created_at: e.createdAt }];
    }
    const row = eventRow(e, stage !== '' && !first ? 1 : 0, {
      brand: v.brand,
      campaign: v.campaign,
      source: v.source,
      landing: v.landing_path,
      device: v.device,
    });
    yield ['traffic_events', { ...row }];
  }
}

/**
 * Sums the three rollups from the raw visits and events (the store's rollups must be empty): what
 * the writer adds batch by batch, in one statement per table and dimension.
 */
export async function rollupsFromRaw(db: Store): Promise<void> {
  // the events' created_at has collation "C" on PostgreSQL (their partitions' bounds), the visits' the default: the hours are compared as C text
  const c = isPostgresStore(db) ? ' COLLATE "C"' : '';
  const cube = 'brand, campaign, source, landing, device, state, metric';
  await sql
    .raw(
      `INSERT INTO traffic_hourly (hour, ${cube}, count, value)
       SELECT hour, ${cube}, count(*), sum(value) FROM (
         SELECT substr(created_at, 1, 13)${c} AS hour, brand, campaign, source, landing_path AS landing, device, '' AS state, 'visit' AS metric, 0 AS value FROM traffic_visits
         UNION ALL
         SELECT substr(created_at, 1, 13)${c}, ${cube}, value FROM traffic_events WHERE repeated = 0
       ) x GROUP BY hour, ${cube}`,
    )
    .execute(db);
  const day = 'substr(hour, 1, 10)';
  for (const dim of DAILY_DIMS) {
    const key = dim === 'all' ? `''` : dim;
    await sql
      .raw(
        `INSERT INTO traffic_daily (day, brand, dim, key, metric, count, value)
         SELECT ${day}, brand, '${dim}', ${key}, metric, sum(count), sum(value) FROM traffic_hourly GROUP BY ${day}, brand, ${dim === 'all' ? '' : `${key}, `}metric`,
      )
      .execute(db);
  }
  for (const fdim of PAIR_FILTER_DIMS)
    for (const dim of PAIR_DIMS) {
      if (dim === fdim) continue;
      const key = dim === 'all' ? `''` : dim;
      await sql
        .raw(
          `INSERT INTO traffic_daily_pairs (fdim, fkey, dim, day, key, metric, count, value)
           SELECT '${fdim}', ${fdim}, '${dim}', ${day}, ${key}, metric, sum(count), sum(value) FROM traffic_hourly GROUP BY ${fdim}, ${day}, ${dim === 'all' ? '' : `${key}, `}metric`,
        )
        .execute(db);
    }
}

/**
 * Loads the demo traffic of `o` into a migrated store with no traffic yet (`file`: the SQLite
 * store's file, or `url`: the PostgreSQL store's), sums its rollups and analyses the tables
 * (PostgreSQL: as autovacuum would after a bulk load; SQLite: as the pruner does). Returns what
 * the generator made.
 */
export async function loadDemoTraffic(db: Store, target: { file: string } | { url: string }, o: DemoOptions): Promise<DemoTotals> {
  if (o.experiments?.length) throw new Error('the bulk loader writes no experiment exposures: write demo traffic with experiments through writeDemoTraffic');
  const totals: DemoTotals = { visits: 0, events: 0, leads: 0, sold: 0, returned: 0, revenueCents: 0 };
  if (isPostgresStore(db)) {
    const end = (o.now ?? new Date()).getTime();
    const days = Array.from({ length: o.days + 1 }, (_, i) => new Date(end - (o.days - i) * 86_400_000).toISOString().slice(0, 10));
    await ensureEventPartitions(db, days);
  }
  const sink = 'url' in target ? postgresSink(target.url) : sqliteSink(target.file);
  let sales: DemoSale[] = [];
  const flushSales = async () => {
    const r = demoSaleRows(sales);
    sales = [];
    for (const [table, rows] of [
      ['leads', r.leads],
      ['lead_sales', r.rows],
      ['sale_events', r.timeline],
      ['lead_returns', r.returns],
    ] as const)
      for (const row of rows) await sink.add(table, row as unknown as Row);
  };
  try {
    for (const visit of demoVisits(o, o.idBase ?? demoIdBase(), totals)) {
      for (const [table, row] of rawRows(visit)) {
        const wait = sink.add(table, row);
        if (wait) await wait;
      }
      // the lead with its copy of the visit's dimensions, as the writer copies them from the stored visit (engine/store/leadVisitDims.ts)
      if (visit.sale && sales.push({ ...visit.sale, lead: { ...visit.sale.lead, ...visitDimsOf(visit.visit) } }) >= 1000) await flushSales();
      if (o.onProgress && totals.visits % 50_000 === 0) o.onProgress({ events: totals.events, leads: totals.leads, visits: totals.visits });
    }
    await flushSales();
  } finally {
    await sink.end();
  }
  await rollupsFromRaw(db);
  // Statistics as a store in use has them: PostgreSQL's autovacuum after a bulk load, SQLite's from the pruner's PRAGMA optimize.
  if (isPostgresStore(db)) await sql`VACUUM ANALYZE`.execute(db);
  else await refreshPlannerStatistics(db);
  return totals;
}
