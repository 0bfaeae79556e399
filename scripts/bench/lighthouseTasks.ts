/**
 * A Lighthouse run's main-thread tasks, as its trace recorded them: each task that Lighthouse's 4×
 * simulation would make long (over 12.5 ms of wall time), with its wall and CPU (thread) time, the
 * wait between them, and what ran in it (the largest script calls and evaluations, parsing, style,
 * layout, by url). On this shared machine a task's wall time is much of it waiting for a core; a
 * task waiting on the browser process (a first storage or cookie read) shows a wait the others do
 * not. A tool to find what lengthens tasks, not a bench row:
 *   npx tsx scripts/bench/lighthouseTasks.ts <url>… [--runs=n]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mainThreadOf, type TraceEvent } from './cpuTimeTrace';
import { lighthouseResult, withBrowser } from './lighthouse';

type Event = TraceEvent & { args?: { data?: { url?: string; functionName?: string; type?: string } } };

const TOP_LEVEL = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);
const WORK = new Set([
  'FunctionCall',
  'EvaluateScript',
  'v8.compile',
  'ParseHTML',
  'UpdateLayoutTree',
  'Layout',
  'Paint',
  'EventDispatch',
  'TimerFire',
  'FireIdleCallback',
  'FireAnimationFrame',
  'V8.GC_SCAVENGER',
  'MajorGC',
  'MinorGC',
  'v8.evaluateModule',
]);
const short = (url = '') => url.split('/').pop()?.split('?')[0] || url;

export function tasksOf(events: Event[], minWallMs = 12.5): string[] {
  const main = mainThreadOf(events);
  if (!main) return ['(no main thread)'];
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
  const tasks = mine.filter((e) => TOP_LEVEL.has(e.name) && e.dur! / 1000 >= minWallMs);
  const t0 = events.find((e) => e.name === 'navigationStart')?.ts ?? tasks[0]?.ts ?? 0;
  return tasks.map((task) => {
    const end = task.ts + task.dur!;
    const inner = mine.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= end && WORK.has(e.name));
    // the outermost of each kind only: a FunctionCall inside an EvaluateScript is part of it
    const outer = inner.filter((e) => !inner.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur! && o.dur! > e.dur!));
    const parts = outer
      .sort((a, b) => b.dur! - a.dur!)
      .slice(0, 4)
      .map(
        (e) =>
          `${e.name}${e.args?.data?.url ? ` ${short(e.args.data.url)}` : e.args?.data?.type ? ` ${e.args.data.type}` : ''} ${(e.dur! / 1000).toFixed(1)}/${((e.tdur ?? 0) / 1000).toFixed(1)}`,
      );
    const wall = task.dur! / 1000;
    const cpu = (task.tdur ?? 0) / 1000;
    return `${((task.ts - t0) / 1000).toFixed(0).padStart(6)} ms  wall ${wall.toFixed(1).padStart(6)}  cpu ${cpu.toFixed(1).padStart(6)}  wait ${(wall - cpu).toFixed(1).padStart(6)}  ${parts.join(' | ')}`;
  });
}

async function main() {
  const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 1);
  const urls = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  await withBrowser(async (browser) => {
    for (let i = 0; i < runs; i++) {
      for (const url of urls) {
        const dir = mkdtempSync(join(tmpdir(), 'lighthouse-tasks-'));
        try {
          const lhr = await lighthouseResult(browser, url, undefined, undefined, dir);
          const trace = JSON.parse(readFileSync(join(dir, 'trace.json'), 'utf8')) as { traceEvents: Event[] };
          const tbt = Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN);
          console.log(`\n${url} (run ${i + 1}): TBT ${tbt} ms; tasks over 12.5 ms of wall time (ms, wall/cpu for each part):`);
          for (const line of tasksOf(trace.traceEvents)) console.log(line);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
  }, 'lighthouse-tasks-profile');
}

if (process.argv[1]?.endsWith('lighthouseTasks.ts')) void main();
