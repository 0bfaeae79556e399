/** The HTML a visitor downloads for the busiest templates (page weight itself is issue 13's other part). */
import { gzipSync } from 'node:zlib';
import { get, kb, type BenchContext, type Row } from './context';

const PAGES = ['/payday-loans', '/'];
const BUDGET = 30 * 1024;

export async function htmlSizeRows(ctx: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  for (const path of PAGES) {
    const res = await get(ctx.port, ctx.host, path);
    const bytes = Buffer.byteLength(res.body);
    rows.push({ figure: `HTML of ${ctx.brand}${path === '/' ? ' home' : path}`, measured: `${kb(bytes)} (gzip ${kb(gzipSync(res.body).length)})`, budget: '≤ 30 KB', ok: bytes <= BUDGET });
  }
  return rows;
}
