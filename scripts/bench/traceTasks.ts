/**
 * The page's main-thread tasks from a Lighthouse trace, the long ones named by what runs in them: Lighthouse's
 * simulation multiplies a task's wall time by 4 and counts what is over 50 ms as blocking, so on this machine
 * (wall time ~2× CPU time) any task over ~12 ms of wall time costs TBT. Used by lighthouseAB.ts --tasks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mainThreadOf, type TraceEvent } from './cpuTimeTrace';

export interface MainTask {
  /** ms from the first main-thread task of the document */
  startMs: number;
  wallMs: number;
  cpuMs: number;
  /** the largest events directly inside the task, e.g. `FunctionCall performWorkUntilDeadline 41ms` */
  what: string;
}

const TOP_LEVEL = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);
const base = (url: string | undefined) => (url ? (url.split('/').pop() ?? url).split('?')[0] || 'document' : '');

type Described = TraceEvent & { args?: { data?: { url?: string; functionName?: string; type?: string } } };

function label(e: Described): string {
  const d = e.args?.data;
  const detail = d?.functionName || d?.type || base(d?.url);
  return detail ? `${e.name} ${detail}` : e.name;
}

/** The main thread's top-level tasks of at least `minWallMs`, in order, each with its largest inner events. */
export function mainThreadTasks(events: TraceEvent[], minWallMs = 12): MainTask[] {
  const main = mainThreadOf(events);
  if (!main) return [];
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
  const tasks = mine.filter((e) => TOP_LEVEL.has(e.name));
  const t0 = tasks[0]?.ts ?? 0;
  const out: MainTask[] = [];
  for (const task of tasks) {
    if (task.dur! / 1000 < minWallMs) continue;
    const end = task.ts + task.dur!;
    // direct children: inside the task and not inside an earlier child
    const children: TraceEvent[] = [];
    let childEnd = 0;
    for (const e of mine) {
      if (e === task || e.ts < task.ts || e.ts > end) continue;
      if (e.ts >= childEnd) {
        children.push(e);
        childEnd = e.ts + e.dur!;
      }
    }
    const what = children
      .filter((c) => c.dur! >= 1000)
      .sort((a, b) => b.dur! - a.dur!)
      .slice(0, 4)
      .map((c) => `${label(c as Described)} ${Math.round(c.dur! / 1000)}`)
      .join(', ');
    out.push({ startMs: (task.ts - t0) / 1000, wallMs: task.dur! / 1000, cpuMs: (task.tdur ?? task.dur!) / 1000, what });
  }
  return out;
}

/** The tasks of a run's kept artifacts (lighthouseResult's `saveTo`), read before anything rewrites the trace. */
export function savedTasks(savedIn: string, minWallMs?: number): MainTask[] {
  const trace = JSON.parse(readFileSync(join(savedIn, 'trace.json'), 'utf8')) as { traceEvents: TraceEvent[] };
  return mainThreadTasks(trace.traceEvents, minWallMs);
}

export const taskLine = (t: MainTask) => `${Math.round(t.startMs)}: ${Math.round(t.wallMs)} ms wall / ${Math.round(t.cpuMs)} ms CPU — ${t.what}`;
