/**
 * Lighthouse 12 mobile performance as bench rows (scripts/bench/lighthouse.ts runs it): every page
 * template of 3 brands against ≥ 95, and the payday home with its tag manager vs without (issue 11).
 * Skipped with --no-lighthouse (it takes minutes).
 */
import type { BenchContext, Row } from './context';
import { LIGHTHOUSE_BUDGET, lighthousePages, lighthouseTagManager, type LighthouseRow } from './lighthouse';

const measured = (r: LighthouseRow) =>
  r.error && !r.runs
    ? `FAILED: ${r.error}`
    : `${r.score}  LCP ${Math.round(r.lcpMs)} ms  TBT ${Math.round(r.tbtMs)} ms  CLS ${r.cls.toFixed(3)}  (${r.runs} run${r.runs === 1 ? '' : 's'})`;

export async function lighthouseRows(ctx: BenchContext): Promise<Row[]> {
  if (process.argv.includes('--no-lighthouse')) return [];
  const origin = (brand: string) => `http://${brand}.localhost:${ctx.port}`;
  const pages = await lighthousePages(origin);
  const gtm = await lighthouseTagManager(`${origin(ctx.brand)}/`);
  const note =
    "lighthouse@12.8.2, mobile preset (simulated slow 4G, 4× CPU), Chromium /usr/bin/chromium; third-party hosts intercepted and answered at once (our loading strategy, not the vendors' bytes)";
  return [
    ...pages.map((r, i) => ({
      figure: `Lighthouse ${r.label}`,
      measured: measured(r),
      budget: `≥ ${LIGHTHOUSE_BUDGET}`,
      ok: r.score >= LIGHTHOUSE_BUDGET,
      ...(i === 0 ? { note } : {}),
    })),
    { figure: 'Lighthouse payday home WITH tag manager', measured: measured(gtm.with) },
    {
      figure: 'Lighthouse payday home WITHOUT tag manager',
      measured: measured(gtm.without),
      note: `median of ${gtm.with.runs} alternating runs each; "without" is the same HTML with gtmId removed from its page data in the browser`,
    },
  ];
}
