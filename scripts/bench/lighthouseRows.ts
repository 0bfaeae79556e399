/**
 * Lighthouse mobile performance as bench rows (scripts/bench/lighthouse.ts runs it): every page
 * template of 3 brands against ≥ 95, and the payday home with its tag manager vs without (what the tag manager costs).
 * Skipped with --no-lighthouse (it takes minutes).
 */
import { createRequire } from 'node:module';
import { startServer, stopServer, type BenchContext, type Row } from './context';
import { buildMinimalApp } from './firstLoadJs';
import { LIGHTHOUSE_BUDGET, lighthousePages, lighthouseTagManager, type LighthouseRow } from './lighthouse';

/** The installed Lighthouse, named in the row so a figure says which version measured it. */
const LIGHTHOUSE_VERSION: string = createRequire(import.meta.url)('lighthouse/package.json').version;

const measured = (r: LighthouseRow) =>
  r.error && !r.runs
    ? `FAILED: ${r.error}`
    : `${r.score}  LCP ${Math.round(r.lcpMs)} ms  TBT ${Math.round(r.tbtMs)} ms  CLS ${r.cls.toFixed(3)}  (${r.runs} run${r.runs === 1 ? '' : 's'})`;

export async function lighthouseRows(ctx: BenchContext): Promise<Row[]> {
  if (process.argv.includes('--no-lighthouse')) return [];
  const origin = (brand: string) => `http://${brand}.localhost:${ctx.port}`;
  // Next's one-page app on the next port, measured between the brands: on a busy shared machine TBT
  // (and so the score) moves with the load; the reference shows what the same moment allows.
  const minimal = await startServer(buildMinimalApp(ctx.root), ctx.port + 1);
  const { rows: pages, reference, speeds } = await lighthousePages(origin, `http://localhost:${ctx.port + 1}/`).finally(() => stopServer(minimal));
  const gtm = await lighthouseTagManager(`${origin(ctx.brand)}/`);
  const note = `lighthouse@${LIGHTHOUSE_VERSION}, mobile preset (simulated slow 4G, 4× CPU), Chromium /usr/bin/chromium; third-party hosts intercepted and answered at once (our loading strategy, not the vendors' bytes)`;
  return [
    ...pages.map((r, i) => ({
      figure: `Lighthouse ${r.label}`,
      measured: measured(r),
      budget: `≥ ${LIGHTHOUSE_BUDGET}`,
      ok: r.score >= LIGHTHOUSE_BUDGET,
      ...(i === 0 ? { note } : {}),
    })),
    ...(reference
      ? [
          {
            figure: "Lighthouse Next's minimal page (reference)",
            measured: measured(reference),
            note: `Next's one-page app (<p>Hello</p>, the same next version) measured before each brand's pages, in the same browser; machine speed over the pages' runs (Lighthouse benchmarkIndex) ${Math.min(...speeds)}–${Math.max(...speeds)}`,
          },
        ]
      : []),
    { figure: 'Lighthouse payday home WITH tag manager', measured: measured(gtm.with) },
    {
      figure: 'Lighthouse payday home WITHOUT tag manager',
      measured: measured(gtm.without),
      note: `median of ${gtm.with.runs} alternating runs each; "without" is the same HTML with gtmId removed from its page data in the browser`,
    },
  ];
}
