/**
 * Who runs while the page's main thread waits (threadShare.ts): Lighthouse runs of each URL, interleaved, with
 * a trace of every Chromium thread (Lighthouse's categories plus toplevel, cc, viz, gpu, v8 and the layer and
 * paint details), and /proc read every ~20 ms meanwhile. Per run, over the main thread's long tasks: their wall
 * time, the CPU the two cores could give in it, what the main thread got, what each kind of Chromium thread got
 * (from the trace), and what Chromium as a whole, the server answering the URL, this Node process (Lighthouse
 * itself) and the rest of the machine got (from /proc). A tool to find what takes the main thread off the CPU,
 * not a bench row:
 *   npx tsx scripts/bench/threadShareRun.ts <url>… [--runs=n] [--keep=dir] [--paint]
 * `--keep=dir` keeps each run's trace (Chrome's Performance panel opens it); `--paint` adds the layer and paint-profile
 * categories (see PAINT: they cost CPU themselves).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mainThreadOf, type TraceEvent } from './cpuTimeTrace';
import { lighthouseResult, withBrowser } from './lighthouse';
import { byRole, longTaskWindows, samplesInWindows, threadCpuInWindows, type Sample } from './threadShare';

/**
 * Added to Lighthouse's own categories: every thread's top-level tasks, the compositors' and V8's work. The layer and
 * picture categories (`--paint`) let DevTools show layers and paint profiles, but cost the compositors much CPU
 * themselves (each display list serialised into the trace): never read CPU shares from such a run.
 */
export const ALL_THREADS = 'toplevel,cc,viz,gpu,v8,disabled-by-default-devtools.timeline';
export const PAINT = 'disabled-by-default-devtools.timeline.layers,disabled-by-default-devtools.timeline.picture';

const HZ = 100; // USER_HZ: /proc's CPU times are in hundredths of a second

function stat(pid: number): { ppid: number; cpuMs: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), cpuMs: ((Number(f[11]) + Number(f[12])) * 1000) / HZ };
  } catch {
    return undefined;
  }
}

/** A process and all its descendants. */
function tree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(Number(entry));
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), Number(entry)]);
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!) ?? []));
  return out;
}

/** The process listening on a TCP port (ss -ltnp), if any. */
function listener(port: string): number | undefined {
  const r = spawnSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const m = /pid=(\d+)/.exec(r.stdout ?? '');
  return m ? Number(m[1]) : undefined;
}

function machineCpuMs(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: all but idle and iowait
  return ((f[0]! + f[1]! + f[2]! + f[5]! + f[6]! + (f[7] ?? 0)) * 1000) / HZ;
}

/**
 * Reads the CPU of the machine and of each group of processes (a process and its descendants, re-listed every half
 * second; a negative pid: that process alone) until stopped.
 */
function sampler(groups: Record<string, number | undefined>): { stop: () => Sample[] } {
  const samples: Sample[] = [];
  let trees: Record<string, number[]> = {};
  const list = () => (trees = Object.fromEntries(Object.entries(groups).flatMap(([k, pid]) => (pid ? [[k, pid < 0 ? [-pid] : tree(pid)]] : []))));
  list();
  let n = 0;
  const read = () => {
    if (++n % 25 === 0) list();
    const cpuMs: Record<string, number> = { machine: machineCpuMs() };
    for (const [k, pids] of Object.entries(trees)) cpuMs[k] = pids.reduce((sum, p) => sum + (stat(p)?.cpuMs ?? 0), 0);
    samples.push({ at: Number(process.hrtime.bigint() / 1000n), cpuMs });
  };
  read();
  const timer = setInterval(read, 20);
  return {
    stop: () => {
      clearInterval(timer);
      read();
      return samples;
    },
  };
}

const ms = (n: number) => `${Math.round(n)}`.padStart(5);

async function main() {
  const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 1);
  const keep = process.argv.find((a) => a.startsWith('--keep='))?.slice(7);
  const categories = process.argv.includes('--paint') ? `${ALL_THREADS},${PAINT}` : ALL_THREADS;
  if (keep) mkdirSync(keep, { recursive: true });
  const urls = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const cores = cpus().length;
  // per URL over its runs: long-task wall time, and CPU by who got it (trace roles and /proc groups)
  const totals = new Map<string, { wall: number; cpu: Map<string, number> }>();
  const add = (url: string, wall: number, parts: [string, number][]) => {
    const t = totals.get(url) ?? { wall: 0, cpu: new Map<string, number>() };
    t.wall += wall;
    for (const [k, v] of parts) t.cpu.set(k, (t.cpu.get(k) ?? 0) + v);
    totals.set(url, t);
  };
  await withBrowser(async (browser) => {
    for (let i = 0; i < runs; i++) {
      for (const url of urls) {
        const dir = mkdtempSync(join(tmpdir(), 'thread-share-'));
        try {
          const s = sampler({ chromium: browser.process()?.pid, server: listener(new URL(url).port || '80'), lighthouse: -process.pid });
          const lhr = await lighthouseResult(browser, url, undefined, undefined, dir, { additionalTraceCategories: categories });
          const samples = s.stop();
          const events = (JSON.parse(readFileSync(join(dir, 'trace.json'), 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
          if (keep) copyFileSync(join(dir, 'trace.json'), join(keep, `${new URL(url).host}${new URL(url).pathname.replace(/\//g, '_')}-${i}.json`));
          const windows = longTaskWindows(events);
          const wall = windows.reduce((sum, [a, b]) => sum + b - a, 0) / 1000;
          const shares = threadCpuInWindows(events, windows);
          const roles = byRole(shares, mainThreadOf(events));
          const procs = samplesInWindows(samples, windows);
          const chromium = procs.chromium ?? 0;
          const traced = roles.reduce((sum, [, c]) => sum + c, 0);
          const known = chromium + (procs.server ?? 0) + (procs.lighthouse ?? 0);
          const tbt = Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN);
          console.log(
            `\n${url} (run ${i + 1}): TBT ${tbt} ms; ${windows.length} long tasks, ${Math.round(wall)} ms wall = ${Math.round(cores * wall)} ms of CPU on ${cores} cores`,
          );
          console.log('  from the trace (ms of CPU / ms busy, inside the long tasks):');
          for (const [role, c, w] of roles.filter(([, c, w]) => c >= 0.5 || w >= 2).slice(0, 14)) console.log(`   ${ms(c)} /${ms(w)}  ${role}`);
          console.log(`   ${ms(traced)}         all traced threads`);
          console.log('  from /proc (ms of CPU inside the long tasks, 10 ms granularity):');
          console.log(`   ${ms(chromium)}  Chromium (all its processes)`);
          console.log(`   ${ms(procs.server ?? 0)}  the server answering ${new URL(url).host}`);
          console.log(`   ${ms(procs.lighthouse ?? 0)}  this Node process (Lighthouse, puppeteer, the sampler)`);
          console.log(`   ${ms((procs.machine ?? 0) - known)}  the rest of the machine`);
          console.log(`   ${ms(cores * wall - (procs.machine ?? 0))}  idle`);
          add(url, wall, [
            ...roles.map(([role, c]): [string, number] => [role, c]),
            ['(/proc) Chromium', chromium],
            ['(/proc) server', procs.server ?? 0],
            ['(/proc) Lighthouse', procs.lighthouse ?? 0],
            ['(/proc) rest of the machine', (procs.machine ?? 0) - known],
          ]);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
  }, 'thread-share-profile');
  // Pages differ in how long their long tasks last: comparable is the share of a core each got meanwhile.
  const roles = [...new Set([...totals.values()].flatMap((t) => [...t.cpu].filter(([, c]) => c / t.wall >= 0.01).map(([k]) => k)))];
  console.log(`\nshare of a core during the long tasks (CPU ms per ms of wall time), all runs; columns: ${[...totals.keys()].join(' | ')}`);
  console.log(`${'long tasks, ms wall'.padEnd(44)} ${[...totals.values()].map((t) => ms(t.wall)).join('  ')}`);
  for (const role of roles)
    console.log(`${role.slice(0, 44).padEnd(44)} ${[...totals.values()].map((t) => ((t.cpu.get(role) ?? 0) / t.wall).toFixed(2).padStart(5)).join('  ')}`);
}

if (process.argv[1]?.endsWith('threadShareRun.ts')) void main();
