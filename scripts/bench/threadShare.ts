/**
 * Who runs while the page's main thread waits. A Lighthouse task's wall time on this 2-core machine is
 * often several times its CPU time: the renderer's main thread is runnable but off the CPU. This sums,
 * over the main thread's long tasks (12.5 ms of wall time or more: what Lighthouse's 4× simulation makes
 * long), the CPU time every other thread in the trace got meanwhile — Chromium's compositor and raster
 * workers, the viz display compositor (software compositing with --disable-gpu), the browser process's IO
 * thread streaming the trace — and, from /proc sampled during the run (threadShareRun.ts), what processes
 * outside the trace got: our server, Lighthouse's own Node process, and the rest of the machine.
 *
 * Pure functions here (the tool is threadShareRun.ts):
 * - `longTaskWindows`: the main thread's long tasks as [start, end] (µs, the trace's clock);
 * - `threadCpuInWindows`: each thread's CPU time inside those windows, from its outermost slices' thread
 *   time (`tdur`), a slice that straddles a window counted in proportion to the part inside;
 * - `samplesInWindows`: the same for CPU counters sampled now and then (/proc jiffies), each interval's
 *   CPU spread evenly over it.
 * Chromium's trace clock and Node's process.hrtime are both CLOCK_MONOTONIC on Linux, so both line up.
 */
import { mainThreadOf, type TraceEvent } from './cpuTimeTrace';

const TOP_LEVEL = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

export type Window = [start: number, end: number];

/**
 * The page main thread's top-level tasks of at least `minWallMs`, as time windows (µs), in order. With the `toplevel`
 * category a task is recorded twice (Lighthouse's RunTask around the scheduler's ThreadControllerImpl::RunTask): the
 * outer one only.
 */
export function longTaskWindows(events: TraceEvent[], minWallMs = 12.5): Window[] {
  const main = mainThreadOf(events);
  if (!main) return [];
  const tasks = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && TOP_LEVEL.has(e.name) && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const out: Window[] = [];
  let end = -Infinity;
  for (const e of tasks) {
    if (e.ts < end) continue;
    end = e.ts + e.dur!;
    if (e.dur! >= minWallMs * 1000) out.push([e.ts, end]);
  }
  return out;
}

/** How much of [start, end] lies inside the windows (µs); windows sorted and not overlapping. */
export function overlap(start: number, end: number, windows: Window[]): number {
  let inside = 0;
  for (const [a, b] of windows) {
    if (a >= end) break;
    inside += Math.max(0, Math.min(b, end) - Math.max(a, start));
  }
  return inside;
}

export interface ThreadShare {
  pid: number;
  tid: number;
  process: string;
  thread: string;
  /** CPU time (thread time) inside the windows, ms */
  cpuMs: number;
  /** wall time of its slices inside the windows, ms (busy, on the CPU or waiting for it) */
  wallMs: number;
}

type Named = TraceEvent & { args?: { name?: string } };

/** Process and thread names from the trace's metadata events. */
function names(events: Named[]) {
  const process = new Map<number, string>();
  const thread = new Map<string, string>();
  for (const e of events) {
    if (e.ph !== 'M' || !e.args?.name) continue;
    if (e.name === 'process_name') process.set(e.pid, e.args.name);
    if (e.name === 'thread_name') thread.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  return { process, thread };
}

/**
 * Every thread's CPU (and busy wall) time inside the windows, largest first, the page's main thread among them.
 * Only outermost complete slices ('X') count: what nests in one is part of it. A slice without thread time counts
 * its wall time only (a thread whose clock the trace does not read).
 */
export function threadCpuInWindows(events: TraceEvent[], windows: Window[]): ThreadShare[] {
  const { process, thread } = names(events as Named[]);
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined) continue;
    const key = `${e.pid}:${e.tid}`;
    const list = byThread.get(key) ?? [];
    list.push(e);
    byThread.set(key, list);
  }
  const out: ThreadShare[] = [];
  for (const [key, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    let cpu = 0;
    let wall = 0;
    let outerEnd = -Infinity;
    for (const e of list) {
      if (e.ts < outerEnd) continue; // nested in the slice before
      outerEnd = e.ts + e.dur!;
      const inside = overlap(e.ts, outerEnd, windows);
      if (!inside) continue;
      wall += inside;
      if (e.tdur !== undefined && e.dur! > 0) cpu += Math.min(e.tdur, e.dur!) * (inside / e.dur!);
    }
    if (!wall) continue;
    const [pid, tid] = key.split(':').map(Number) as [number, number];
    out.push({ pid, tid, process: process.get(pid) ?? `pid ${pid}`, thread: thread.get(key) ?? `tid ${tid}`, cpuMs: cpu / 1000, wallMs: wall / 1000 });
  }
  return out.sort((a, b) => b.cpuMs - a.cpuMs || b.wallMs - a.wallMs);
}

/** A reading of CPU counters at one moment: `at` in µs (CLOCK_MONOTONIC), each counter's CPU time so far in ms. */
export interface Sample {
  at: number;
  cpuMs: Record<string, number>;
}

/** Each counter's CPU time inside the windows: between two samples, the CPU it gained spread evenly over the interval. */
export function samplesInWindows(samples: Sample[], windows: Window[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 1; i < samples.length; i++) {
    const [a, b] = [samples[i - 1]!, samples[i]!];
    if (b.at <= a.at) continue;
    const share = overlap(a.at, b.at, windows) / (b.at - a.at);
    if (!share) continue;
    for (const [k, v] of Object.entries(b.cpuMs)) {
      const before = a.cpuMs[k];
      if (before === undefined) continue;
      out[k] = (out[k] ?? 0) + Math.max(0, v - before) * share;
    }
  }
  return out;
}

/** Threads grouped by what they are (by process — the page's renderer apart — and by thread name without its number: `CompositorTileWorker1/2` → one). */
export function byRole(shares: ThreadShare[], main: { pid: number; tid: number } | undefined): [role: string, cpuMs: number, wallMs: number][] {
  const roles = new Map<string, [number, number]>();
  for (const s of shares) {
    const page = main && s.pid === main.pid;
    const thread = page && s.tid === main.tid ? 'main thread' : s.thread.replace(/\d+$/, '').replace(/[/_]$/, '');
    const role = `${page ? 'page renderer' : s.process.replace(/ \(.*$/, '')}: ${thread}`;
    const [c, w] = roles.get(role) ?? [0, 0];
    roles.set(role, [c + s.cpuMs, w + s.wallMs]);
  }
  return [...roles].map(([role, [c, w]]): [string, number, number] => [role, c, w]).sort((a, b) => b[1] - a[1]);
}
