/**
 * Lighthouse A/B, interleaved: each variant once per round, `--runs` rounds, in one browser, so the
 * machine's moment weighs on every variant alike. Per run: score, FCP, LCP, TBT, TTI and the long
 * tasks as Lighthouse simulates them (start and duration in ms of the 4×-slower CPU, the script they
 * are attributed to); then each variant's medians. A tool to judge a change, not a bench row:
 *   npx tsx scripts/bench/lighthouseAB.ts [--runs=3] [--json=dir] [--cpu-time] label=URL[+nogtm|+nojs][+nohints|+hints] …
 * `+nogtm`: the page's HTML with its tag-manager id taken out (the bench's withoutTagManager); `+nojs`: the page's
 * HTML with every executable script and script preload taken out (withoutScripts: what the bytes alone cost); `+nohints` /
 * `+hints`: the page's own scripts without / with V8's compile hint (scripts/compile-hints.ts);
 * every variant goes through the same request interception (third parties answered at once, empty).
 * `--json=dir` keeps each run's Lighthouse JSON. `--cpu-time`: each run's audits again on its trace with every main-thread task
 * shortened to its CPU time (cpuTimeTrace.ts): the figures a quiet machine would give, steady on a loaded one.
 * `--tasks`: each run's main-thread tasks of 12 ms wall time or more (traceTasks.ts), and the medians of the largest one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Result } from 'lighthouse';
import { COMPILE_HINT } from '../compile-hints';
import { cpuTimeAudit } from './cpuTimeTrace';
import { lighthouseResult, withBrowser, withoutScripts, withoutTagManager, type Rewrite } from './lighthouse';
import { savedTasks, taskLine } from './traceTasks';

interface Run {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  tti: number;
  longTasks: string;
}

const audit = (lhr: Result, id: string) => lhr.audits[id]?.numericValue ?? NaN;
const base = (url: string) => (url.startsWith('http') ? (new URL(url).pathname.split('/').pop() ?? url) : url);

export function summary(lhr: Result): Run {
  const items = ((lhr.audits['long-tasks']?.details as { items?: { url: string; startTime: number; duration: number }[] } | undefined)?.items ?? [])
    .slice()
    .sort((a, b) => a.startTime - b.startTime);
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: audit(lhr, 'first-contentful-paint'),
    lcp: audit(lhr, 'largest-contentful-paint'),
    tbt: audit(lhr, 'total-blocking-time'),
    tti: audit(lhr, 'interactive'),
    longTasks: items.map((t) => `${Math.round(t.startTime)}+${Math.round(t.duration)} ${base(t.url)}`).join(', '),
  };
}

const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const fmt = (r: Omit<Run, 'longTasks'>) =>
  `score ${r.score}  FCP ${Math.round(r.fcp)}  LCP ${Math.round(r.lcp)}  TBT ${Math.round(r.tbt)}  TTI ${Math.round(r.tti)}`;

async function main() {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const runs = Number(arg('runs') ?? 3);
  const json = arg('json');
  const cpuTime = process.argv.includes('--cpu-time');
  const tasks = process.argv.includes('--tasks');
  if (json) mkdirSync(json, { recursive: true });
  const variants = process.argv
    .slice(2)
    .filter((a) => !a.startsWith('--'))
    .map((a) => {
      const [label, spec] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, a];
      const [url, ...mods] = spec.split('+');
      // every variant through the same interception path; only the rewrites differ
      const rewrite: Rewrite = mods.includes('nojs') ? withoutScripts : mods.includes('nogtm') ? withoutTagManager : (html) => html;
      const rewriteScript: Rewrite = mods.includes('nohints')
        ? (js) => js.replace(/^\/\/# allFunctionsCalledOnLoad\n/, '')
        : mods.includes('hints')
          ? (js) => (js.startsWith(COMPILE_HINT) ? js : COMPILE_HINT + js)
          : (js) => js;
      return { label, url: url!, rewrite, rewriteScript, runs: [] as Run[], cpuRuns: [] as Run[], largest: [] as { wall: number; cpu: number }[] };
    });
  await withBrowser(async (browser) => {
    for (let i = 0; i < runs; i++) {
      for (const v of variants) {
        const dir = mkdtempSync(join(tmpdir(), 'lighthouse-ab-'));
        try {
          const lhr = await lighthouseResult(browser, v.url, v.rewrite, v.rewriteScript, cpuTime || tasks ? dir : undefined);
          if (json) writeFileSync(`${json}/${v.label}-${i}.json`, JSON.stringify(lhr));
          const r = summary(lhr);
          v.runs.push(r);
          console.log(`${v.label.padEnd(16)} ${fmt(r)}  (speed ${Math.round(lhr.environment.benchmarkIndex)})\n  long tasks: ${r.longTasks}`);
          if (tasks) {
            const list = savedTasks(dir);
            console.log(list.map((t) => `    ${taskLine(t)}`).join('\n'));
            const top = list.reduce((a, t) => (t.wallMs > a.wallMs ? t : a), { wallMs: 0, cpuMs: 0 });
            v.largest.push({ wall: top.wallMs, cpu: top.cpuMs });
          }
          if (cpuTime) {
            const { lhr: onCpu, wallMs, cpuMs } = await cpuTimeAudit(v.url, dir);
            const c = summary(onCpu);
            v.cpuRuns.push(c);
            console.log(
              `${'  on CPU time'.padEnd(16)} ${fmt(c)}  (main thread tasks ${Math.round(wallMs)} ms wall, ${Math.round(cpuMs)} ms CPU)\n  long tasks: ${c.longTasks}`,
            );
          }
        } catch (err) {
          console.log(`${v.label.padEnd(16)} failed: ${(err as Error).message}`);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
  }, 'lighthouse-ab-profile');
  console.log(`\nmedians of ${runs} interleaved run(s):`);
  const medians = (runs: Run[]) => {
    const m = (k: keyof Omit<Run, 'longTasks'>) => mid(runs.map((r) => r[k]));
    return fmt({ score: m('score'), fcp: m('fcp'), lcp: m('lcp'), tbt: m('tbt'), tti: m('tti') });
  };
  for (const v of variants) if (v.runs.length) console.log(`${v.label.padEnd(16)} ${medians(v.runs)}`);
  if (cpuTime) {
    console.log('on CPU time (each main-thread task as long as the CPU time it got):');
    for (const v of variants) if (v.cpuRuns.length) console.log(`${v.label.padEnd(16)} ${medians(v.cpuRuns)}`);
  }
  if (tasks) {
    console.log('largest main-thread task (median of the runs):');
    for (const v of variants)
      if (v.largest.length)
        console.log(`${v.label.padEnd(16)} ${Math.round(mid(v.largest.map((l) => l.wall)))} ms wall, ${Math.round(mid(v.largest.map((l) => l.cpu)))} ms CPU`);
  }
}

if (process.argv[1]?.endsWith('lighthouseAB.ts')) void main();
