/** The HTML a visitor downloads, and the page data inside it (scripts/bench/pageWeight.ts measures). */
import { kb, type BenchContext, type Row } from './context';
import { HTML_BUDGET_BYTES, pageWeights } from './pageWeight';

/** The payday home and /payday-loans carry the ≤ 30 KB budget; the other pages are printed for comparison. */
const BUDGETED = new Set(['ipaydayloans/', 'ipaydayloans/payday-loans']);

export async function htmlSizeRows(ctx: BenchContext): Promise<Row[]> {
  return (await pageWeights(ctx.port)).map((w) => ({
    figure: `HTML of ${w.page}`,
    measured: `${kb(w.htmlBytes)} (gzip ${kb(w.gzipBytes)}; page data ${kb(w.dataBytes)})`,
    ...(BUDGETED.has(w.page) ? { budget: `≤ ${kb(HTML_BUDGET_BYTES)}`, ok: w.htmlBytes <= HTML_BUDGET_BYTES } : {}),
  }));
}
