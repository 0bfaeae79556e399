/**
 * The sale bench's memory row: the selling process's memory at idle (its store open and migrated,
 * its buyers read, before its first sale) and after each burst of sales, each after a full GC in
 * V8's heap-shrinking flavour (what V8's memory reducer does once a process is quiet). The
 * process is started with the server's own process settings (saleRun.ts imports what server.mjs
 * imports first), since the sale runs inside the server.
 *
 * The budget is the working set: RSS after every sale of the run (6,000 and more) within idle +
 * 64 MB, and the heap flat. What a busy process holds on top, the pages V8 committed at the peak
 * (its young generation, old-space pages emptied by the GC), is printed beside it (RSS after a
 * plain full GC): it goes once the process is quiet. Native memory the C allocator keeps (SQLite,
 * sockets, the compiler) is bounded by statement reuse (engine/store/sqliteConnection.ts) and two
 * malloc arenas (engine/process/memorySettings.mjs). The growth of each burst is printed too: a leak
 * grows on every one.
 */
import type { Row } from './context';

export type MemorySnapshot = Pick<NodeJS.MemoryUsage, 'rss' | 'heapUsed' | 'external' | 'arrayBuffers'> & {
  /** RSS after a plain full GC, before the heap-shrinking one: with the pages the peak committed */
  committedRss?: number;
};

/** RSS over idle after every sale of the run, and heap over idle */
export const MEMORY_BUDGET = { overIdleMb: 64, heapMb: 16 };

const mb = (bytes: number) => bytes / 1024 / 1024;
const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;

/**
 * The memory row from the idle snapshot and one after each burst (at least two bursts): `sales`
 * is how many sales the process made by the last snapshot, `perBurst` how many each burst made.
 */
export function memoryRow(idle: MemorySnapshot, bursts: readonly MemorySnapshot[], perBurst: number, sales: number): Row {
  if (bursts.length < 2) throw new Error('the memory row needs a snapshot after at least two bursts');
  const last = bursts.at(-1)!;
  const growth = bursts.map((s, i) => mb(s.rss - (bursts[i - 1] ?? idle).rss));
  const over = mb(last.rss - idle.rss);
  const heap = mb(last.heapUsed - idle.heapUsed);
  const count = (n: number) => n.toLocaleString('en-US');
  const field = (name: string, k: 'heapUsed' | 'external' | 'arrayBuffers') =>
    `${name} ${mb(idle[k]).toFixed(1)} → ${mb(last[k]).toFixed(1)} MB (${signed(mb(last[k] - idle[k]))})`;
  return {
    figure: `sale working set: RSS after ${count(sales)} sales over the selling process's idle RSS (heap after GC)`,
    measured:
      `RSS ${mb(idle.rss).toFixed(0)} → ${mb(last.rss).toFixed(0)} MB (${signed(over)}); ` +
      `per burst of ${count(perBurst)} ${growth.map(signed).join(', ')}; ` +
      (last.committedRss === undefined ? '' : `${mb(last.committedRss).toFixed(0)} MB before the heap-shrinking GC (pages the peak committed); `) +
      `${field('heap', 'heapUsed')}; ${field('external', 'external')}; ${field('Buffers', 'arrayBuffers')}`,
    budget: `RSS ≤ idle + ${MEMORY_BUDGET.overIdleMb} MB, heap < idle + ${MEMORY_BUDGET.heapMb} MB`,
    ok: over <= MEMORY_BUDGET.overIdleMb && heap < MEMORY_BUDGET.heapMb,
    note:
      `each figure after a full GC in V8's heap-shrinking flavour (what its memory reducer does once the process is quiet; a busy one also holds the pages the peak committed, printed beside it); idle: the process with its store open and migrated and its stand-in buyers read, before its first sale; ` +
      `the process runs with the server's process settings (scripts/bench/saleRun.ts imports engine/process/boundYoungGeneration.mjs first, as server.mjs does); ` +
      `the first bursts are the rows above, then ${bursts.length} bursts of ${count(perBurst)}; a leak would grow on every burst`,
  };
}
