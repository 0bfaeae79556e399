/**
 * Cold renders: sitemap URLs of the brand never requested before, 8 at a time, against the
 * static file's rps of the same run; and what the page cache holds afterwards (PAGE_CACHE_STATS
 * on the bench server: /__page-cache on loopback), and what was written to disk meanwhile.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { get, kb, median, type BenchContext, type Row } from './context';

const CONCURRENCY = 8;
const PAGES = Number(process.env.BENCH_COLD_PAGES ?? 400);

/** Every URL path of the brand's sitemaps. */
async function sitemapPaths(ctx: BenchContext): Promise<string[]> {
  const index = await get(ctx.port, ctx.host, '/sitemap.xml');
  const files = [...index.body.matchAll(/<loc>https?:\/\/[^/]+(\/sitemaps\/\d+\.xml)<\/loc>/g)].map((m) => m[1]!);
  const paths: string[] = [];
  for (const f of files) paths.push(...[...(await get(ctx.port, ctx.host, f)).body.matchAll(/<loc>https?:\/\/[^/<]+([^<]*)<\/loc>/g)].map((m) => m[1] || '/'));
  return paths;
}

/** A fixed shuffle (same URLs every run, spread over states and page kinds). */
function spread<T>(items: T[], count: number): T[] {
  const step = Math.max(1, Math.floor(items.length / count));
  const out: T[] = [];
  for (let i = 0; out.length < count && i < items.length * 2; i += step) out.push(items[(i * 7919) % items.length]!);
  return [...new Set(out)];
}

function diskBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

export async function coldRenderRows(ctx: BenchContext): Promise<Row[]> {
  const all = (await sitemapPaths(ctx)).filter((p) => p !== '/' && p !== '/payday-loans');
  const urls = spread(all, PAGES);
  const serverDir = join(ctx.root, '.next/server');
  const diskBefore = diskBytes(serverDir);
  const latencies: number[] = [];
  let wrong = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < urls.length) {
        const path = urls[next++]!;
        const t = performance.now();
        const res = await get(ctx.port, ctx.host, path);
        latencies.push(performance.now() - t);
        if (res.status !== 200) wrong++;
      }
    }),
  );
  const perSecond = urls.length / ((performance.now() - started) / 1000);
  const diskWritten = diskBytes(serverDir) - diskBefore;
  const staticRps = ctx.shared.get('staticRps');
  const sorted = [...latencies].sort((a, b) => a - b);
  const ratio = staticRps ? perSecond / staticRps : NaN;
  const statsRes = await get(ctx.port, '127.0.0.1', '/__page-cache');
  const stats =
    statsRes.status === 200
      ? (JSON.parse(statsRes.body) as { maxBytes: number; bytes: number; entries: number; evicted: number; notFoundSkipped: number; largest: number } | null)
      : null;
  const perPage = stats && stats.entries ? stats.bytes / stats.entries : NaN;
  return [
    {
      figure: 'cold render ÷ static file rps',
      measured: `${ratio.toFixed(3)} (${perSecond.toFixed(0)} pages/s, p50 ${median(latencies).toFixed(0)} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)]!.toFixed(0)} ms)`,
      budget: '≥ 0.1 (goal ≥ 0.2)',
      ok: ratio >= 0.1 && wrong === 0,
      note: `${urls.length} never-requested sitemap URLs of ${ctx.brand} (${all.length} in its sitemaps), ${CONCURRENCY} at a time; ${wrong} answered other than 200`,
    },
    {
      figure: 'page cache written to disk per page',
      measured: `${kb(diskWritten / urls.length)} (${diskWritten} bytes for ${urls.length} pages)`,
      budget: '≤ 25 KB',
      ok: diskWritten / urls.length <= 25 * 1024,
    },
    {
      figure: 'page cache held per page (memory: html + page data)',
      measured: stats ? `${kb(perPage)} (largest ${kb(stats.largest)})` : 'no counters (REDIS_URL set?)',
      note: 'the single-instance cache keeps pages in memory only (engine/cache/boundedPageCache.mjs)',
    },
    {
      figure: 'page cache total bound',
      measured: stats
        ? `${(stats.maxBytes / 1024 / 1024).toFixed(0)} MB (PAGE_CACHE_MB); now ${(stats.bytes / 1024 / 1024).toFixed(1)} MB in ${stats.entries} pages, ${stats.evicted} dropped, ${stats.notFoundSkipped} notFound not stored`
        : '—',
      budget: 'bounded',
      ok: !!stats && stats.bytes <= stats.maxBytes,
    },
  ];
}
