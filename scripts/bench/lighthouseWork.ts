/**
 * What each Lighthouse page makes the browser do on load, in counts that do not move with the
 * machine's load, printed beside Next's minimal page measured in the same run (interleaved): DOM
 * elements, style recalculations (and the elements they restyled), layouts (and the layout objects
 * they laid out), HTML/CSS/JS bytes; and, for orientation only, the CPU times (4× slowed, as
 * Lighthouse's mobile preset) Chromium's own counters report. A tool to judge a change side by side,
 * not a bench row: `npx tsx scripts/bench/lighthouseWork.ts [--port=3540] [--runs=2] [--cpu=4] [--only=regex]`
 * (builds Next's minimal app once; our server must have been built).
 */
import type { ChildProcess } from 'node:child_process';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium';
import { startServer, stopServer } from './context';
import { buildMinimalApp } from './firstLoadJs';
import { LIGHTHOUSE_PAGES } from './lighthouse';

export interface LoadWork {
  elements: number;
  /** style recalculations, and the elements they restyled in all */
  recalcs: number;
  restyled: number;
  /** layouts, and the layout objects they laid out in all */
  layouts: number;
  laidOut: number;
  htmlKB: number;
  cssKB: number;
  jsKB: number;
  /** Chromium's counters (Performance.getMetrics), ms of the 4× slowed CPU: orientation only */
  styleMs: number;
  layoutMs: number;
  scriptMs: number;
  taskMs: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  pid: number;
  tid: number;
  args?: { elementCount?: number; beginData?: { dirtyObjects?: number; totalObjects?: number; url?: string }; name?: string };
}

/**
 * The trace's counts on the main thread of the page's renderer: the one that parsed a document of
 * `origin` (a trace also holds the browser's own pages — a new-tab page's script, say — whose
 * style and layout work would otherwise be counted with the page's).
 */
export function traceCounts(events: TraceEvent[], origin: string): Pick<LoadWork, 'recalcs' | 'restyled' | 'layouts' | 'laidOut'> {
  const pages = new Set(events.filter((e) => e.name === 'ParseHTML' && e.args?.beginData?.url?.startsWith(origin)).map((e) => e.pid));
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && pages.has(e.pid)).map((e) => `${e.pid}:${e.tid}`));
  const out = { recalcs: 0, restyled: 0, layouts: 0, laidOut: 0 };
  for (const e of events) {
    if (!main.has(`${e.pid}:${e.tid}`)) continue;
    if (e.name === 'UpdateLayoutTree' && (e.ph === 'X' || e.ph === 'B')) {
      out.recalcs++;
      out.restyled += e.args?.elementCount ?? 0;
    } else if (e.name === 'Layout' && (e.ph === 'X' || e.ph === 'B')) {
      out.layouts++;
      out.laidOut += e.args?.beginData?.dirtyObjects ?? 0;
    }
  }
  return out;
}

async function measureOnce(browser: Browser, url: string): Promise<LoadWork> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 });
  try {
    const page = await context.newPage();
    const bytes = { html: 0, css: 0, js: 0 };
    page.on('response', (res) => {
      const type = res.request().resourceType();
      const key = type === 'document' ? 'html' : type === 'stylesheet' ? 'css' : type === 'script' ? 'js' : undefined;
      if (key)
        void res.body().then(
          (b) => (bytes[key] += b.length),
          () => undefined,
        );
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
    await cdp.send('Performance.enable');
    await browser.startTracing(page, { categories: ['devtools.timeline'] });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.hydrated !== undefined, undefined, { timeout: 30_000 }).catch(() => undefined);
    // the work asked for on idle after the load
    await page.evaluate(() => new Promise((r) => setTimeout(r, 1500)));
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    const m = (name: string) => metrics.find((x) => x.name === name)?.value ?? NaN;
    const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
    return {
      elements,
      ...traceCounts(trace.traceEvents, new URL(url).origin),
      htmlKB: bytes.html / 1024,
      cssKB: bytes.css / 1024,
      jsKB: bytes.js / 1024,
      styleMs: m('RecalcStyleDuration') * 1000,
      layoutMs: m('LayoutDuration') * 1000,
      scriptMs: m('ScriptDuration') * 1000,
      taskMs: m('TaskDuration') * 1000,
    };
  } finally {
    await context.close();
  }
}

/** CPU slowdown (Lighthouse's mobile preset is 4×; the counts do not depend on it, the times do) */
const CPU = Number(process.argv.find((a) => a.startsWith('--cpu='))?.slice(6) ?? 4);

const COLUMNS: [keyof LoadWork, string, number][] = [
  ['elements', 'elems', 0],
  ['recalcs', 'recalc', 0],
  ['restyled', 'restyled', 0],
  ['layouts', 'layouts', 0],
  ['laidOut', 'laid out', 0],
  ['htmlKB', 'HTML KB', 1],
  ['cssKB', 'CSS KB', 1],
  ['jsKB', 'JS KB', 1],
  ['styleMs', 'style ms', 0],
  ['layoutMs', 'layout ms', 0],
  ['scriptMs', 'script ms', 0],
  ['taskMs', 'task ms', 0],
];

const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const medianWork = (runs: LoadWork[]) => Object.fromEntries(COLUMNS.map(([k]) => [k, mid(runs.map((r) => r[k]))])) as unknown as LoadWork;

async function main() {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const port = Number(arg('port') ?? process.env.BENCH_PORT ?? 3540);
  const runs = Number(arg('runs') ?? 2);
  const only = arg('only') ? new RegExp(arg('only')!) : undefined;
  const servers: ChildProcess[] = [];
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  try {
    servers.push(await startServer(process.cwd(), port));
    servers.push(await startServer(buildMinimalApp(process.cwd()), port + 1));
    const reference = `http://localhost:${port + 1}/`;
    const rows: [string, LoadWork][] = [];
    const refRuns: LoadWork[] = [];
    for (const { brand, pages } of LIGHTHOUSE_PAGES) {
      for (const [template, path] of pages) {
        const label = `${brand} ${template}`;
        if (only && !only.test(label)) continue;
        const mine: LoadWork[] = [];
        // interleaved: the minimal page before each run of ours, so both see the machine's moment
        for (let i = 0; i < runs; i++) {
          refRuns.push(await measureOnce(browser, reference));
          mine.push(await measureOnce(browser, `http://${brand}.localhost:${port}${path}`));
        }
        rows.push([label, medianWork(mine)]);
        print(label, medianWork(mine), medianWork(refRuns));
      }
    }
    const ref = medianWork(refRuns);
    console.log(`\nmedian of ${runs} run(s) each, ${CPU}× CPU, 412×823 mobile; Next's minimal page interleaved (${refRuns.length} runs)\n${HEAD}`);
    console.log(line("Next's minimal page", ref));
    for (const [label, w] of rows) console.log(`${line(label, w)}\n${ratio(w, ref)}`);
  } finally {
    await browser.close();
    servers.forEach(stopServer);
  }
}

const HEAD = ['page'.padEnd(30), ...COLUMNS.map(([, h]) => h.padStart(9))].join(' ');
const line = (label: string, w: LoadWork) => [label.padEnd(30), ...COLUMNS.map(([k, , d]) => w[k].toFixed(d).padStart(9))].join(' ');
const ratio = (w: LoadWork, ref: LoadWork) =>
  ['  × Next'.padEnd(30), ...COLUMNS.map(([k]) => (ref[k] ? `${(w[k] / ref[k]).toFixed(2)}×` : '-').padStart(9))].join(' ');
/** As it goes (a long run on a loaded machine keeps what it measured). */
const print = (label: string, w: LoadWork, ref: LoadWork) => console.log(`${HEAD}\n${line('Next so far', ref)}\n${line(label, w)}\n${ratio(w, ref)}`);

if (process.argv[1]?.endsWith('lighthouseWork.ts')) void main();
