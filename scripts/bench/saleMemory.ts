/**
 * The sale bench's memory row: the process's memory, each time after a full GC, before the first
 * burst of sales and after each burst.
 *
 * Why bursts, and why the budget is on the last one: the first burst takes the process from idle
 * to its working set. The native memory that better-sqlite3 (a statement prepared per query),
 * undici's sockets to the buyers and V8's optimising compiler allocate and free stays with the
 * allocator (glibc keeps freed pages it cannot trim), and V8 keeps the heap pages it committed at
 * the peak, so RSS rises by tens of MB (+55 to +237 MB seen) while the heap, the external memory
 * and the Buffers, each after a full GC, stay flat. Two more bursts of the same sales add a few MB
 * each: a plateau, not a leak. A leak grows by the same amount on every burst, so the growth over
 * the last burst is the figure that tells one apart; the first burst's growth is printed beside it.
 */
import type { Row } from './context';

export type MemorySnapshot = Pick<NodeJS.MemoryUsage, 'rss' | 'heapUsed' | 'external' | 'arrayBuffers'>;

/** per burst of sales once the working set is reached (RSS), and over every burst (heap) */
export const MEMORY_BUDGET = { rssMb: 64, heapMb: 16 };

const mb = (bytes: number) => bytes / 1024 / 1024;
const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;

/** The memory row from the snapshot before the first burst and one after each burst (at least two bursts). */
export function memoryRow(snapshots: readonly MemorySnapshot[], perBurst: number): Row {
  if (snapshots.length < 3) throw new Error('the memory row needs a snapshot before the first burst and after at least two bursts');
  const first = snapshots[0]!;
  const last = snapshots.at(-1)!;
  const growth = snapshots.slice(1).map((s, i) => mb(s.rss - snapshots[i]!.rss));
  const steady = growth.at(-1)!;
  const heap = mb(last.heapUsed - first.heapUsed);
  const sales = perBurst.toLocaleString('en-US');
  const field = (name: string, k: keyof MemorySnapshot) =>
    `${name} ${mb(first[k]).toFixed(1)} → ${mb(last[k]).toFixed(1)} MB (${signed(mb(last[k] - first[k]))})`;
  return {
    figure: `memory over ${snapshots.length - 1} bursts of ${sales} sales (RSS growth per burst; heap after GC)`,
    measured:
      `RSS ${mb(first.rss).toFixed(0)} → ${mb(last.rss).toFixed(0)} MB: ${growth.map(signed).join(', ')} per burst ` +
      `(last ${((steady * 1024 * 1024) / perBurst / 1024).toFixed(1)} KB a sale); ` +
      `${field('heap', 'heapUsed')}; ${field('external', 'external')}; ${field('Buffers', 'arrayBuffers')}`,
    budget: `RSS + < ${MEMORY_BUDGET.rssMb} MB over the last ${sales}, heap + < ${MEMORY_BUDGET.heapMb} MB over all`,
    ok: steady < MEMORY_BUDGET.rssMb && heap < MEMORY_BUDGET.heapMb,
    note:
      `each figure after a full GC; the first burst (the ${sales} sales of the row above) takes the process to its working set: ` +
      `the allocator keeps the native memory freed by SQLite statements, sockets and the compiler, and V8 the heap pages committed at the peak, ` +
      `so RSS rises once while heap, external and Buffers stay flat; later bursts of the same sales add a few MB (a plateau). ` +
      `A leak grows on every burst, so the budget is on the last one`,
  };
}
