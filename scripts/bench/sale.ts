/**
 * The sale (engine/sale/runner.ts runSale) in this process, on a SQLite store of its own, against
 * stand-in buyers on loopback (tests/support/standInBuyer.ts) in a child process:
 * - decision time p50/p99 with 10 ping-post buyers: 5 bid at once, 3 bid slowly (400 ms), 2 never
 *   answer (their 1,000 ms ping timeout bounds every decision); 20 sales at a time, like a server;
 * - leads sold per second through the whole sale (lease, duplicate check, pings, post, decision,
 *   timeline) with the same mix, and with 10 buyers that all answer at once;
 * - the working set: RSS, heap, external and Buffers after a full GC at idle (before the first sale)
 *   and after each of three bursts of 2,000 sales, the last after 6,420 sales (saleMemory.ts).
 * The rows are measured in a process of their own started with the server's process settings
 * (scripts/bench/saleRun.ts), not in the bench's. Leads are stored before the clock starts.
 * Standalone: npx tsx scripts/bench/sale.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Buyer } from '../../schemas/buyer.types';
import { leadKeyring } from '../../engine/keys/sealing';
import { buildBuyerCatalog } from '../../engine/sale/buyers';
import { runSale, type SaleDeps } from '../../engine/sale/runner';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { storeSaleLead } from '../../tests/support/saleLead';
import type { PingBehaviour } from '../../tests/support/standInBuyer';
import type { BenchContext, Row } from './context';
import { memoryRow, type MemorySnapshot } from './saleMemory';

const SECRET = 'bench-stand-in-secret';
const KEY = Buffer.alloc(32, 9);
const AT_ONCE = 20; // SALE_CONCURRENCY's default
const DECISIONS = Number(process.env.BENCH_SALE_DECISIONS ?? 200);
const MEMORY_SALES = Number(process.env.BENCH_SALE_MEMORY ?? 2000);
const MEMORY_BURSTS = Math.max(2, Number(process.env.BENCH_SALE_BURSTS ?? 3));
const PING_TIMEOUT_MS = 1000;
const BUDGET = { p50: 1250, p99: 1750, mixPerSecond: 12, fastPerSecond: 20 };

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options: object) => void;
/**
 * The process's memory after a full GC in V8's heap-shrinking flavour (the kind its memory reducer
 * runs once a process has been quiet for several seconds): what the process holds, not what the
 * last burst's peak left committed.
 */
const memory = (): MemorySnapshot => {
  // first a plain full GC: what a busy process holds, the committed pages of the peak included
  gc({ type: 'major', execution: 'sync' });
  const committedRss = process.memoryUsage.rss();
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external, arrayBuffers, committedRss };
};

/** Starts stand-in buyers in a child process (scripts/bench/saleBuyers.ts); their documents, and the child to stop. */
async function buyers(prefix: string, behaviours: PingBehaviour[]): Promise<{ docs: Buyer[]; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/saleBuyers.ts'], {
    env: {
      ...process.env,
      BENCH_SALE_SECRET: SECRET,
      BENCH_SALE_PING_MS: String(PING_TIMEOUT_MS),
      BENCH_SALE_BUYERS: JSON.stringify(behaviours.map((ping, i) => ({ id: `${prefix}-${i}`, ping }))),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`the stand-in buyers exited (${code})`)));
  });
  const c = buildBuyerCatalog((JSON.parse(line) as unknown[]).map((d, i) => ({ file: `${i}.json`, text: JSON.stringify(d) })));
  if (c.problems.length) throw new Error(c.problems.join('\n'));
  return { docs: [...c.buyers.values()].map((b) => b.buyer), child };
}

/** Sells every lead, AT_ONCE at a time; each sale's decision time (ms) and the wall time. */
async function sell(db: Store, leads: string[], deps: SaleDeps): Promise<{ times: number[]; seconds: number; sold: number; cpuMsPerSale: number }> {
  const times: number[] = [];
  let next = 0;
  let sold = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < leads.length) {
        const id = leads[next++]!;
        const t = performance.now();
        const r = await runSale(db, id, deps);
        times.push(performance.now() - t);
        if (r?.status === 'sold') sold += 1;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { times, seconds: (performance.now() - t0) / 1000, sold, cpuMsPerSale: (cpu.user + cpu.system) / 1000 / leads.length };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
// sealed with this process's lead key, which the sale opens them with
const store = (db: Store, n: number) => Promise.all(Array.from({ length: n }, () => storeSaleLead(db, leadKeyring())));

/** The rows, measured in a process started as the server is (scripts/bench/saleRun.ts). */
export async function saleRows(_ctx?: Pick<BenchContext, 'root'>): Promise<Row[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/saleRun.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const line = out.split('\n').find((l) => l.startsWith(ROWS_PREFIX));
  if (code !== 0 || !line) throw new Error(`the sale bench process exited (${code}) without its rows:\n${out.slice(-2000)}`);
  return JSON.parse(line.slice(ROWS_PREFIX.length)) as Row[];
}

/** How saleRun.ts prints its rows on stdout. */
export const ROWS_PREFIX = 'SALE-ROWS ';

/** The rows, measured in this process. */
export async function saleRowsHere(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'loansites-bench-sale-'));
  const db = openStore({ url: '', file: join(dir, 'sale.sqlite') });
  const children: ChildProcess[] = [];
  try {
    await migrateStore(db);
    const mix = await buyers('mix', [
      ...Array.from({ length: 5 }, (_, i) => ({ bid: 10 + i })),
      ...[1, 2, 3].map((i) => ({ bid: 20 + i, delayMs: 400 })),
      'hang',
      'hang',
    ]);
    const fast = await buyers(
      'fast',
      Array.from({ length: 10 }, (_, i) => ({ bid: 10 + i })),
    );
    children.push(mix.child, fast.child);
    const idle = memory();
    let sales = 0;
    const deps = (list: { docs: Buyer[] }, worker: string): SaleDeps => ({ buyers: list.docs, secretOf: () => SECRET, contactKey: KEY, worker });

    await sell(db, await store(db, AT_ONCE), deps(mix, 'warm-up'));
    const decisions = await sell(db, await store(db, DECISIONS), deps(mix, 'decisions'));
    sales += AT_ONCE + DECISIONS + 200;
    const sorted = [...decisions.times].sort((a, b) => a - b);
    const p50 = pct(sorted, 50);
    const p99 = pct(sorted, 99);

    await sell(db, await store(db, 200), deps(fast, 'warm-up-fast'));
    // The first burst is also the rate row's; the later ones show whether memory keeps growing (saleMemory.ts).
    const leads = await store(db, MEMORY_SALES);
    const many = await sell(db, leads, deps(fast, 'memory'));
    const snapshots = [memory()];
    for (let burst = 1; burst < MEMORY_BURSTS; burst++) {
      await sell(db, await store(db, MEMORY_SALES), deps(fast, `memory-${burst}`));
      snapshots.push(memory());
    }
    sales += MEMORY_BURSTS * MEMORY_SALES;
    const mixRate = decisions.sold / decisions.seconds;
    const fastRate = many.sold / many.seconds;
    const load = loadavg()[0]!.toFixed(1);
    const how = `machine load average ${load} at the end; ${AT_ONCE} sales at a time on SQLite, stand-in buyers on loopback in a process of their own (scripts/bench/saleBuyers.ts)`;
    return [
      {
        figure: 'sale decision time p50 / p99 (10 buyers: 5 fast, 3 slow, 2 silent)',
        measured: `${p50.toFixed(0)} / ${p99.toFixed(0)} ms over ${decisions.times.length} sales (${decisions.sold} sold)`,
        budget: `p50 < ${BUDGET.p50} ms, p99 < ${BUDGET.p99} ms (ping timeout ${PING_TIMEOUT_MS} ms)`,
        ok: p50 < BUDGET.p50 && p99 < BUDGET.p99,
        note: `runSale from claiming the lease to the recorded decision; the two silent buyers hold every ping round to its ${PING_TIMEOUT_MS} ms timeout; slow buyers bid after 400 ms; ${how}`,
      },
      {
        figure: 'leads sold per second, same 10 buyers',
        measured: `${mixRate.toFixed(1)} /s`,
        budget: `≥ ${BUDGET.mixPerSecond} /s`,
        ok: mixRate >= BUDGET.mixPerSecond,
        note: `bounded by the ping timeout: ${AT_ONCE} at a time ÷ ~${(PING_TIMEOUT_MS / 1000).toFixed(1)} s each; ${how}`,
      },
      {
        figure: 'leads sold per second, 10 buyers answering at once',
        measured: `${fastRate.toFixed(1)} /s (${many.sold} of ${MEMORY_SALES}; ${many.cpuMsPerSale.toFixed(1)} ms of CPU per sale)`,
        budget: `≥ ${BUDGET.fastPerSecond} /s`,
        ok: fastRate >= BUDGET.fastPerSecond,
        note: `the sale's own cost: 10 pings, a post and ~15 store writes per lead; the CPU time of the selling process per sale does not depend on the machine's load; ${how}`,
      },
      memoryRow(idle, snapshots, MEMORY_SALES, sales),
    ];
  } finally {
    for (const c of children) c.kill();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await saleRows()) console.log(`${r.figure}  ${r.measured}  [budget ${r.budget}] ${r.ok ? '✓' : '✗ over budget'}`);
  process.exit(0);
}
