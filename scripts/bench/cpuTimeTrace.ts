/**
 * A Lighthouse trace as a quiet machine would have recorded it: every task of the page's main thread
 * shortened to the CPU time its thread actually got (trace events carry both: `dur` is wall time,
 * `tdur` thread time), its inner events scaled with it. On a shared, loaded machine a task's wall
 * time is mostly waiting for a core (tasks measured here ran 2–20× their CPU time), and Lighthouse's
 * simulation multiplies it by 4 all the same — so its TBT follows the machine's load, not the page.
 * Lantern run on the shortened trace (scripts/bench/lighthouseAB.ts --cpu-time) gives a TBT that
 * stays put from one run to the next. What it leaves out: time a task really waits (a synchronous
 * IPC such as the first localStorage read), which a quiet machine also has, if briefly.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse, { type Result } from 'lighthouse';

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; documentLoaderURL?: string }; beginData?: { url?: string } };
}

const TOP_LEVEL = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

/** The page renderer's main thread: the one that parsed the http(s) document. */
export function mainThreadOf(events: TraceEvent[]): { pid: number; tid: number } | undefined {
  const parse = events.find((e) => e.name === 'ParseHTML' && /^https?:/.test(e.args?.beginData?.url ?? ''));
  return parse && { pid: parse.pid, tid: parse.tid };
}

/**
 * Shortens each top-level task of the main thread to its thread time, in place; returns the wall and CPU
 * time of those tasks in all (ms). Events inside a task keep their place relative to its start, scaled.
 */
export function toCpuTime(events: TraceEvent[]): { wallMs: number; cpuMs: number } {
  const main = mainThreadOf(events);
  if (!main) return { wallMs: 0, cpuMs: 0 };
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid).sort((a, b) => a.ts - b.ts);
  const tasks = mine.filter((e) => e.ph === 'X' && TOP_LEVEL.has(e.name) && e.dur && e.tdur !== undefined);
  let wall = 0;
  let cpu = 0;
  let i = 0;
  for (const task of tasks) {
    const start = task.ts;
    const end = task.ts + task.dur!;
    const k = Math.min(1, task.tdur! / task.dur!);
    wall += task.dur!;
    cpu += task.dur! * k;
    while (i < mine.length && mine[i]!.ts < start) i++;
    for (let j = i; j < mine.length && mine[j]!.ts <= end; j++) {
      const e = mine[j]!;
      if (e === task) continue;
      e.ts = start + (e.ts - start) * k;
      if (e.dur !== undefined) e.dur *= k;
    }
    task.dur = task.dur! * k;
  }
  return { wallMs: wall / 1000, cpuMs: cpu / 1000 };
}

/** Lighthouse's figures on CPU time: score, LCP and TBT (ms). */
export interface CpuTimeReading {
  score: number;
  lcpMs: number;
  tbtMs: number;
}

/**
 * Lighthouse's audits again on a run's kept artifacts (lighthouseResult's `saveTo`), its trace shortened to CPU time first (in place).
 * `settings`: the run's own (Lighthouse refuses an audit whose settings differ from the gathering's).
 */
export async function cpuTimeAudit(url: string, savedIn: string, settings: object = {}): Promise<{ lhr: Result; wallMs: number; cpuMs: number }> {
  const file = join(savedIn, 'trace.json');
  const trace = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] };
  const { wallMs, cpuMs } = toCpuTime(trace.traceEvents);
  writeFileSync(file, JSON.stringify(trace));
  const result = await lighthouse(url, { output: 'json', logLevel: 'error', onlyCategories: ['performance'], ...settings, auditMode: savedIn });
  const lhr = result?.lhr;
  if (!lhr || lhr.runtimeError) throw new Error(`no Lighthouse result on CPU time${lhr?.runtimeError ? `: ${lhr.runtimeError.message}` : ''}`);
  return { lhr, wallMs, cpuMs };
}

/** The CPU-time reading of a run, or undefined when it cannot be made (a run is still a run without it). */
export async function onCpuTime(url: string, savedIn: string, settings: object = {}): Promise<CpuTimeReading | undefined> {
  try {
    const { lhr } = await cpuTimeAudit(url, savedIn, settings);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    return { score: Math.round((lhr.categories.performance?.score ?? 0) * 100), lcpMs: audit('largest-contentful-paint'), tbtMs: audit('total-blocking-time') };
  } catch (err) {
    console.warn(`[lighthouse] no reading on CPU time for ${url}: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  }
}
