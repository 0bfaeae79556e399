/**
 * Lighthouse mobile performance as bench rows (scripts/bench/lighthouse.ts runs it): every page
 * template of 3 brands against Next's minimal page measured in the same run (within SCORE_MARGIN
 * points of its median score, TBT within TBT_RATIO× its median TBT), with the absolute figures
 * printed; Next's stock app sending our payday page's HTML and CSS without our JavaScript, beside the
 * minimal page (a reference: what our bytes cost Next alone); what each page's main thread spent its
 * time on; and the payday home with its tag manager vs without (what the tag manager costs). Skipped with --no-lighthouse (it takes minutes).
 */
import { createRequire } from 'node:module';
import { startServer, stopServer, type BenchContext, type Row } from './context';
import type { ChildProcess } from 'node:child_process';
import { buildMinimalApp } from './firstLoadJs';
import { startNextApp } from './nextFloor';
import { buildSameBytesApp, fetchFile, sameBytesPage, writeSameBytes } from './sameBytes';
import {
  lighthousePages,
  lighthouseTagManager,
  SCORE_MARGIN,
  TBT_RATIO,
  withinBudget,
  type LighthouseRow,
  type Reference,
  type SameBytesRow,
  type TraceSummary,
} from './lighthouse';
import type { CpuTimeReading } from './cpuTimeTrace';

/** The page whose bytes the same-bytes reference sends. */
const SAME_BYTES_BRAND = 'ipaydayloans';
const SAME_BYTES_PATH = '/payday-loans';

/** The installed Lighthouse, named in the row so a figure says which version measured it. */
const LIGHTHOUSE_VERSION: string = createRequire(import.meta.url)('lighthouse/package.json').version;

const measured = (r: LighthouseRow) =>
  r.error && !r.runs
    ? `FAILED: ${r.error}`
    : `${r.score}  LCP ${Math.round(r.lcpMs)} ms  TBT ${Math.round(r.tbtMs)} ms  CLS ${r.cls.toFixed(3)}  (${r.runs} run${r.runs === 1 ? '' : 's'})`;

/** The reading on CPU time (cpuTimeTrace.ts), when there is one. */
const onCpu = (r: { cpu?: CpuTimeReading }) =>
  r.cpu ? `on CPU time ${r.cpu.score}  LCP ${Math.round(r.cpu.lcpMs)} ms  TBT ${Math.round(r.cpu.tbtMs)} ms; ` : '';

/** What the budget is judged on: the CPU-time readings when both have one, else the figures as measured. */
const judged = (r: LighthouseRow, ref: Reference) =>
  r.cpu && ref.cpu ? { page: { ...r.cpu, runs: r.runs }, ref: ref.cpu } : { page: r, ref: { score: ref.score, tbtMs: ref.tbtMs } };

/** The score and TBT against the reference's (on CPU time when both have it), then the absolute figures. */
const against = (r: LighthouseRow, ref: Reference) => {
  if (!r.runs) return measured(r);
  const { page, ref: to } = judged(r, ref);
  const diff = page.score - to.score;
  return `${diff >= 0 ? '+' : ''}${diff} pts, TBT ${(page.tbtMs / to.tbtMs).toFixed(2)}×${r.cpu && ref.cpu ? ' (CPU time)' : ''}  — ${onCpu(r)}as measured ${measured(r)}`;
};

/** A script's URL as its file name (Next's chunks are hashed: the name is enough to tell them apart). */
const short = (url: string) => (url.startsWith('http') ? (new URL(url).pathname.split('/').pop() ?? url) || 'document' : url);
const list = (pairs: [string, number][], n: number) =>
  pairs
    .slice(0, n)
    .map(([what, ms]) => `${short(what)} ${ms}`)
    .join(', ') || 'none';

/** The run's main-thread time, the way a reader looks for what to cut. */
export const traceNote = (t: TraceSummary) =>
  `main thread ${t.work.reduce((sum, [, ms]) => sum + ms, 0)} ms (${list(t.work, 5)}); by script: ${list(t.scripts, 5)}; long tasks: ${list(t.longTasks, 5)}`;

/** The same-bytes app (sameBytes.ts) built (once), given our payday page's HTML and files, and started on `port`. */
async function startSameBytes(ctx: BenchContext, port: number): Promise<ChildProcess> {
  const host = `${SAME_BYTES_BRAND}.localhost`;
  const dir = buildSameBytesApp(ctx.root);
  const page = sameBytesPage((await fetchFile(ctx.port, host, SAME_BYTES_PATH)).toString('utf8'));
  const file = await writeSameBytes(dir, page, (path) => fetchFile(ctx.port, host, path));
  return startNextApp(ctx.root, dir, port, { SAME_BYTES_FILE: file });
}

/** Score and TBT of a row against the reference's: on CPU time when both have it, and as measured. */
const versus = (r: LighthouseRow, ref: Reference) => {
  const pts = (a: number, b: number) => `${a - b >= 0 ? '+' : ''}${a - b} pts`;
  const cpu = r.cpu && ref.cpu ? `on CPU time ${pts(r.cpu.score, ref.cpu.score)}, TBT ${(r.cpu.tbtMs / ref.cpu.tbtMs).toFixed(2)}×; ` : '';
  return `${cpu}as measured ${pts(r.score, ref.score)}, TBT ${(r.tbtMs / ref.tbtMs).toFixed(2)}×`;
};

function sameBytesRow(r: SameBytesRow, ref: Reference, prepareMs: number): Row {
  const runs = r.scores.map((s) => `${s.score}/${Math.round(s.tbtMs)} ms${s.cpu ? ` (CPU time ${s.cpu.score}/${Math.round(s.cpu.tbtMs)} ms)` : ''}`);
  return {
    figure: `Lighthouse Next with our bytes (${SAME_BYTES_BRAND} ${SAME_BYTES_PATH}'s HTML and CSS, Next's JS only; reference)`,
    measured: `${onCpu(r)}median as measured ${r.score}, TBT ${Math.round(r.tbtMs)} ms — vs Next's minimal page: ${versus(r, ref)} — runs ${runs.join(', ')}`,
    note: `a stock Next app (the same next) whose page renders nothing and whose _document sends our page's body (scripts out) and stylesheet (scripts/bench/sameBytes.ts); one run right after each brand's run of the minimal page; it added ${Math.round((prepareMs + r.ms) / 1000)} s to this producer (${Math.round(prepareMs / 1000)} s to build/start it, ${Math.round(r.ms / 1000)} s of runs)`,
  };
}

export async function lighthouseRows(ctx: BenchContext): Promise<Row[]> {
  if (process.argv.includes('--no-lighthouse')) return [];
  const origin = (brand: string) => `http://${brand}.localhost:${ctx.port}`;
  // Next's one-page app on the next port, measured between the brands and after the last: on a busy
  // shared machine TBT (and so the score) moves with the load; the budget is relative to it.
  const minimal = await startServer(buildMinimalApp(ctx.root), ctx.port + 1);
  // Next's stock app sending our payday page's bytes without our JavaScript, on the port after (a reference, no budget)
  const prepared = Date.now();
  const same = await startSameBytes(ctx, ctx.port + 2).catch((err: Error) => {
    console.warn(`[lighthouse] no same-bytes page: ${err.message}`);
    return undefined;
  });
  const prepareMs = Date.now() - prepared;
  const {
    rows: pages,
    reference,
    sameBytes,
    speeds,
  } = await lighthousePages(origin, `http://localhost:${ctx.port + 1}/`, same ? `http://localhost:${ctx.port + 2}/` : undefined).finally(() => {
    stopServer(minimal);
    if (same) stopServer(same);
  });
  const gtm = await lighthouseTagManager(`${origin(ctx.brand)}/`);
  const note = `lighthouse@${LIGHTHOUSE_VERSION}, mobile preset (simulated slow 4G, 4× CPU), Chromium /usr/bin/chromium; third-party hosts intercepted and answered at once (our loading strategy, not the vendors' bytes)`;
  // Judged on CPU time (cpuTimeTrace.ts): Lantern multiplies each task's wall time by 4, and on this shared machine a task's wall
  // time is mostly waiting for a core — the same page read 37–99 from one run to the next, Next's minimal page 69–94.
  const budget = `≥ Next − ${SCORE_MARGIN} pts, TBT ≤ ${TBT_RATIO}× Next (on CPU time)`;
  return [
    ...(reference
      ? [
          {
            figure: "Lighthouse Next's minimal page (reference)",
            measured: `${onCpu(reference)}median as measured ${reference.score}, TBT ${Math.round(reference.tbtMs)} ms — runs ${reference.runs.map((r) => `${r.score}/${Math.round(r.tbtMs)} ms${r.cpu ? ` (CPU time ${r.cpu.score}/${Math.round(r.cpu.tbtMs)} ms)` : ''}`).join(', ')}`,
            note: `Next's one-page app (<p>Hello</p>, the same next version) measured before each brand's pages and after the last, in the same browser; ${note}; machine speed over the runs (Lighthouse benchmarkIndex) ${Math.min(...speeds)}–${Math.max(...speeds)}; its median run: ${measured(reference.row)}${reference.row.trace ? `; ${traceNote(reference.row.trace)}` : ''}`,
          },
        ]
      : []),
    ...(sameBytes && reference ? [sameBytesRow(sameBytes, reference, prepareMs)] : []),
    ...pages.map((r) => ({
      figure: `Lighthouse ${r.label}`,
      measured: reference ? against(r, reference) : measured(r),
      budget,
      ok: reference ? withinBudget(judged(r, reference).page, judged(r, reference).ref) : false,
      ...(r.trace ? { note: traceNote(r.trace) } : {}),
    })),
    { figure: 'Lighthouse payday home WITH tag manager', measured: `${onCpu(gtm.with)}as measured ${measured(gtm.with)}` },
    {
      figure: 'Lighthouse payday home WITHOUT tag manager',
      measured: `${onCpu(gtm.without)}as measured ${measured(gtm.without)}`,
      note: `median of ${gtm.with.runs} alternating runs each; "without" is the same HTML with gtmId removed from its page data in the browser`,
    },
  ];
}
