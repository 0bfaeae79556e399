/**
 * The server's memory under the events flood, round after round: the production server (server.mjs,
 * SQLite, the default limits) takes the flood of ./eventIngest.ts (64 addresses posting batches
 * of 50 "submitted" back to back) for ROUNDS rounds of BENCH_FLOOD_SECONDS (default 20) each,
 * and the RSS of its process tree is read before and after each round (once the writer has
 * flushed). The process grows to a working size over the first rounds (V8's heaps and the
 * allocator's arenas fill, the routes and pools warm up: measured 129 → 243 → 277 → 306 MB, then
 * 306–308 MB for five more rounds); memory is flat when the second half of the rounds adds at
 * most FLAT_BUDGET — a leak would add with every round.
 * Standalone: npx tsx scripts/bench/floodMemory.ts (after npm run build); the server on BENCH_PORT
 * (default 3200) + 22; BENCH_FLOOD_ROUNDS (8) and BENCH_FLOOD_SECONDS (15) change the load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, MiB, postEvents, settle, tallyText } from './eventIngest';
import { startServer, stopServer, type BenchContext, type Row } from './context';
import { treeRssBytes } from './nextFloor';

const ROUNDS = Math.max(2, Number(process.env.BENCH_FLOOD_ROUNDS ?? 8));
const SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 15);
const ADDRESSES = 64;
const FLAT_BUDGET = 16 * 1024 * 1024;

export async function floodMemoryRows(ctx: Pick<BenchContext, 'root' | 'port'>): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'loansites-flood-memory-'));
  const port = ctx.port + 22;
  const server = await startServer(ctx.root, port, { LOANSITES_DB_FILE: join(dir, 'flood.sqlite'), TRUST_FORWARDED_HOST: '1' });
  try {
    await postEvents(port, { landing: { path: '/' }, events: [{ type: 'page_view', path: '/' }] }, '10.9.9.9');
    await settle();
    const readings = [treeRssBytes(server.pid!)];
    const tally = new Map<number, number>();
    const submitted = () => Array.from({ length: 50 }, () => ({ type: 'submitted', path: '/apply' }));
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(Array.from({ length: ADDRESSES }, (_, i) => client(port, `10.${4 + round}.${i >> 8}.${i & 255}`, SECONDS * 1000, submitted, tally)));
      await settle();
      readings.push(treeRssBytes(server.pid!));
    }
    const half = Math.floor(ROUNDS / 2);
    const growth = readings[readings.length - 1]! - readings[half]!;
    return [
      {
        figure: `events flood, ${ROUNDS} rounds of ${SECONDS} s: server RSS added by the last ${ROUNDS - half} rounds`,
        measured: `${MiB(growth)} (RSS ${readings.map(MiB).join(' → ')}; answers ${tallyText(tally)})`,
        budget: `≤ ${MiB(FLAT_BUDGET)}`,
        ok: growth <= FLAT_BUDGET,
        note: `server.mjs on SQLite at the default limits; each round ${ADDRESSES} loopback clients with their own X-Forwarded-For post batches of 50 "submitted" back to back for ${SECONDS} s; RSS of the server's process tree 2.5 s after each round`,
      },
    ];
  } finally {
    stopServer(server);
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await floodMemoryRows({ root: process.cwd(), port: Number(process.env.BENCH_PORT ?? 3200) });
  for (const r of rows) console.log(`${r.figure}: ${r.measured}  [budget ${r.budget}] ${r.ok ? '✓' : '✗'}`);
  process.exit(0);
}
