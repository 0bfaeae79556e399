/**
 * POST /api/events under load, on the production server (server.mjs) started here on loopback:
 * - the flood: 64 addresses (X-Forwarded-For, trusted) for 30 s, each posting batches of 50
 *   "submitted" for a visit as fast as it is answered (a new visit when its cap is reached), at
 *   the default limits; the SQLite database's growth (file + WAL, after the writer's last flush)
 *   must stay ≤ 20 MB, and the answers and the server's memory are reported;
 * - ingest on PostgreSQL (started for the run, as tests/support/postgres.ts does) with batching:
 *   the budgets raised out of the way, 4 connections posting realistic 50-event batches for
 *   fresh visits for BENCH_INGEST_SECONDS (default 15); events stored per second of the server's
 *   CPU time (/proc user + system: "per server core") ≥ 2,000, and its memory before and after.
 * Standalone: npx tsx scripts/bench/eventIngest.ts (after npm run build).
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../engine/store/db';
import { PG_BIN, startPostgres } from '../../tests/support/postgres';
import { cpuSeconds } from './bareServer';
import { startServer, stopServer, type BenchContext, type Row } from './context';
import { treeRssBytes } from './nextFloor';

const FLOOD_SECONDS = 30;
const FLOOD_ADDRESSES = 64;
const GROWTH_BUDGET = 20 * 1024 * 1024;
const INGEST_SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 15);
const INGEST_BUDGET = 2000;
const INGEST_CONNECTIONS = Number(process.env.BENCH_INGEST_CONNECTIONS ?? 4);
const HOST = 'ipaydayloans.localhost';
export const MiB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

const agent = new Agent({ keepAlive: true, maxSockets: 128 });

export function postEvents(port: number, body: unknown, ip: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const text = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/events',
        agent,
        headers: {
          host: HOST,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          'x-forwarded-for': ip,
          'user-agent': 'bench/1.0',
        },
      },
      (res) => {
        let data = '';
        res.on('data', (c) => (data += c));
        res.on('end', () => {
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(data) as Record<string, unknown>;
          } catch {
            /* not JSON: the status says enough */
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on('error', () => resolve({ status: 0, json: {} }));
    req.end(text);
  });
}

const dbBytes = (file: string) => [file, `${file}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
export const settle = () => new Promise((r) => setTimeout(r, 2500));

/** One client's loop for `ms`: batches from `events()`, a new visit when it has none (or its id is refused). */
export async function client(port: number, ip: string, ms: number, events: () => unknown[], tally: Map<number, number>): Promise<void> {
  const end = Date.now() + ms;
  let visitId: string | undefined;
  while (Date.now() < end) {
    const body = visitId ? { visitId, events: events() } : { landing: { path: '/apply', params: { source1: 'bench' } }, events: events() };
    const res = await postEvents(port, body, ip);
    tally.set(res.status, (tally.get(res.status) ?? 0) + 1);
    if (!visitId && typeof res.json.visitId === 'string') visitId = res.json.visitId;
    else if (res.status !== 202 && /visit/.test(String(res.json.error))) visitId = undefined;
    else if (res.status === 429) await new Promise((r) => setTimeout(r, 50));
  }
}

export const tallyText = (t: Map<number, number>) =>
  [...t.entries()]
    .sort()
    .map(([s, n]) => `${n} × ${s}`)
    .join(', ');

async function floodRow(ctx: BenchContext): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'loansites-flood-'));
  const file = join(dir, 'flood.sqlite');
  const port = ctx.port + 20;
  const server = await startServer(ctx.root, port, { LOANSITES_DB_FILE: file, TRUST_FORWARDED_HOST: '1' });
  try {
    await postEvents(port, { landing: { path: '/' }, events: [{ type: 'page_view', path: '/' }] }, '10.9.9.9');
    await settle();
    const before = { bytes: dbBytes(file), rss: treeRssBytes(server.pid!) };
    const tally = new Map<number, number>();
    const submitted = () => Array.from({ length: 50 }, () => ({ type: 'submitted', path: '/apply' }));
    await Promise.all(Array.from({ length: FLOOD_ADDRESSES }, (_, i) => client(port, `10.1.${i >> 8}.${i & 255}`, FLOOD_SECONDS * 1000, submitted, tally)));
    await settle();
    const after = { bytes: dbBytes(file), rss: treeRssBytes(server.pid!) };
    const db = openStore({ url: '', file });
    const stored = await db
      .selectFrom('traffic_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await db.destroy();
    const growth = after.bytes - before.bytes;
    return {
      figure: `events flood (${FLOOD_ADDRESSES} addresses, ${FLOOD_SECONDS} s): database growth`,
      measured: `${MiB(growth)} (${Number(stored.n).toLocaleString('en-US')} events stored; answers ${tallyText(tally)}; server RSS ${MiB(before.rss)} → ${MiB(after.rss)})`,
      budget: `≤ ${MiB(GROWTH_BUDGET)}`,
      ok: growth <= GROWTH_BUDGET,
      note: `server.mjs on SQLite at the default limits (120 posts and 600 events a minute per address, EVENTS_BUDGET_PER_MINUTE 6,000, EVENTS_PER_VISIT_MAX 300); ${FLOOD_ADDRESSES} loopback clients with their own X-Forwarded-For each post batches of 50 "submitted" for one visit back to back, a new visit when refused for the visit; growth of the SQLite file and its WAL 2.5 s after the last answer`,
    };
  } finally {
    stopServer(server);
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dir, { recursive: true, force: true });
  }
}

const MIX = ['page_view', 'amount_used', 'apply_view', 'submitted'] as const;
const realistic = () =>
  Array.from({ length: 50 }, (_, i) =>
    i % 10 === 9 ? { type: 'step_completed', step: 1 + (i % 3), path: '/apply' } : { type: MIX[i % MIX.length], path: '/apply' },
  );

async function ingestRow(ctx: BenchContext): Promise<Row> {
  const figure = 'event ingest on PostgreSQL with batching (events stored per second of server CPU)';
  if (!existsSync(join(PG_BIN, 'initdb'))) return { figure, measured: `skipped: no PostgreSQL in ${PG_BIN}` };
  const pg = await startPostgres();
  const port = ctx.port + 21;
  const server = await startServer(ctx.root, port, {
    DATABASE_URL: pg.url,
    TRUST_FORWARDED_HOST: '1',
    RATE_LIMIT_EVENTS: '100000000',
    EVENTS_BUDGET_PER_MINUTE: '100000000',
    EVENTS_PER_CLIENT_PER_MINUTE: '100000000',
    EVENTS_PER_VISIT_MAX: '100000000',
  });
  const db = openStore({ url: pg.url });
  const count = async () =>
    Number(
      (
        await db
          .selectFrom('traffic_events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  try {
    // warm-up: the route compiled, the pool open, today's partition made
    const warm = new Map<number, number>();
    await Promise.all(Array.from({ length: 4 }, (_, i) => client(port, `10.2.0.${i}`, 3000, realistic, warm)));
    await settle();
    const startCount = await count();
    const rss0 = treeRssBytes(server.pid!);
    const cpu0 = cpuSeconds(server.pid!);
    const tally = new Map<number, number>();
    // each client a new visit per batch: the first batch of a visit is the costlier one
    await Promise.all(
      Array.from({ length: INGEST_CONNECTIONS }, async (_, i) => {
        const end = Date.now() + INGEST_SECONDS * 1000;
        while (Date.now() < end) await client(port, `10.3.0.${i}`, 1, realistic, tally);
      }),
    );
    const rssMid = treeRssBytes(server.pid!);
    const loadEnd = Date.now();
    // until the writer has stored what it took (the count still for 2 s), at most a minute
    let last = -1;
    for (let still = 0, t = Date.now(); still < 4 && Date.now() - t < 60_000;) {
      await new Promise((r) => setTimeout(r, 500));
      const c = await count();
      still = c === last ? still + 1 : 0;
      last = c;
    }
    const drainS = (Date.now() - loadEnd) / 1000 - 2;
    const cpu = cpuSeconds(server.pid!) - cpu0;
    const stored = last - startCount;
    const accepted = (tally.get(202) ?? 0) * 50;
    const perCore = stored / cpu;
    return {
      figure,
      measured: `${Math.round(perCore).toLocaleString('en-US')} events/s per core (${stored.toLocaleString('en-US')} of ${accepted.toLocaleString('en-US')} accepted events stored (the rest dropped at the writer's bound) from ${INGEST_SECONDS} s of posts, the last ${drainS.toFixed(1)} s after them; ${cpu.toFixed(1)} CPU s; answers ${tallyText(tally)}; server RSS ${MiB(rss0)} → ${MiB(rssMid)} under load → ${MiB(treeRssBytes(server.pid!))} after)`,
      budget: `≥ ${INGEST_BUDGET.toLocaleString('en-US')}`,
      ok: perCore >= INGEST_BUDGET,
      note: `server.mjs on PostgreSQL 15 (started for the run), budgets raised; ${INGEST_CONNECTIONS} loopback connections (BENCH_INGEST_CONNECTIONS) post 50-event batches (page views, amount, apply view, submitted, steps) each for a new visit, for ${INGEST_SECONDS} s (BENCH_INGEST_SECONDS); events counted in traffic_events once the writer has stored all it took (the count still for 2 s) ÷ the server's CPU seconds over the run and the drain (/proc user + system); RSS of the server's process tree`,
    };
  } finally {
    await db.destroy();
    stopServer(server);
    await new Promise((r) => setTimeout(r, 500));
    await pg.stop();
  }
}

export async function eventIngestRows(ctx: BenchContext): Promise<Row[]> {
  return [await floodRow(ctx), await ingestRow(ctx)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.BENCH_PORT ?? 3200);
  const root = process.cwd();
  const ctx = { root, port } as BenchContext;
  eventIngestRows(ctx).then(
    (rows) => {
      for (const r of rows) console.log(`${r.figure}: ${r.measured}${r.budget ? `  [budget ${r.budget}]` : ''}${r.ok === false ? '  ✗' : ''}`);
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
