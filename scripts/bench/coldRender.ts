/**
 * Cold renders: sitemap URLs of the brand never requested before, 8 at a time, against the
 * static file's rps, measured side by side: rounds of fresh pages alternate with rounds of the
 * static file (throughput.ts's file, 20 connections), and the figure is the median of the
 * rounds' ratios. The CPU a page costs is compared with Next's floor (nextFloor.ts) in
 * COLD_PAIRS adjacent pairs of short rounds (BENCH_COLD_PAIRS, default 9, of PAIR_PAGES pages
 * each side; which goes first alternates), the median of the pairs' ratios: on a shared machine
 * one round of either may catch a burst of other work or a full GC, and with 3 long rounds the
 * ratios scattered 0.35–0.64× in one run; short adjacent pairs see the same machine, and an
 * outlier pair or two leave the median alone. A warm-up of other fresh pages comes first, not counted: a server that has
 * been up renders with compiled code, and a just-started one spends its first renders
 * compiling the render path — measured in rounds of 100 fresh pages from a fresh start,
 * pages/s climb from ~220 to ~480 and level off after ~1,500–2,000 pages (V8 tiering up the
 * render path), so the warm-up is 2,000 pages, and the first 400 of them are a row of their
 * own: their CPU per page against the warm rounds'. Then what the page cache holds
 * (PAGE_CACHE_STATS on the bench server: /__page-cache on loopback), and what was written to
 * disk meanwhile.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { WARM_UP_PAGES_DEFAULT } from '../../engine/frontDoor/warmUp';
import { get, kb, median, rps, stopServer, type BenchContext, type Row } from './context';
import { startFloor, treeCpuSeconds, visibleHtml } from './nextFloor';
import { SAME_BYTES_FILE, writeSameBytesFile } from './throughput';

const CONCURRENCY = 8;
const NEXT_VERSION = (createRequire(import.meta.url)('next/package.json') as { version: string }).version;
/** Adjacent ours/floor pairs of rounds the CPU ratio is the median of (at least 5). */
const COLD_PAIRS = Math.max(5, Number(process.env.BENCH_COLD_PAIRS ?? 9));
/** Fresh pages in each round of a pair (each side): ~0.5 s of the server's CPU, ±10 ms of /proc's tick. */
const PAIR_PAGES = Number(process.env.BENCH_COLD_PAGES ?? 200);
const WARM_UP_PAGES = Number(process.env.BENCH_COLD_WARM_UP ?? 2000);
/** The first pages after start: a row of their own against the warm rate. */
const FIRST_PAGES = 400;

/** Every URL path of the brand's sitemaps. */
export async function sitemapPaths(ctx: { port: number; host: string }): Promise<string[]> {
  const index = await get(ctx.port, ctx.host, '/sitemap.xml');
  const files = [...index.body.matchAll(/<loc>https?:\/\/[^/]+(\/sitemaps\/\d+\.xml)<\/loc>/g)].map((m) => m[1]!);
  const paths: string[] = [];
  for (const f of files) paths.push(...[...(await get(ctx.port, ctx.host, f)).body.matchAll(/<loc>https?:\/\/[^/<]+([^<]*)<\/loc>/g)].map((m) => m[1] || '/'));
  return paths;
}

/** A fixed shuffle (same URLs every run, spread over states and page kinds). */
export function spread<T>(items: T[], count: number): T[] {
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

/**
 * One GET, sent again once when the keep-alive connection it went on was closed by the server
 * as it was sent (ECONNRESET: a connection left idle for about the server's keep-alive timeout,
 * 5 s, while the other server's round or the static file's ran). Another error, or a second
 * reset, is thrown.
 */
async function getOnce(ctx: { port: number; host: string }, path: string): ReturnType<typeof get> {
  try {
    return await get(ctx.port, ctx.host, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') throw err;
    return get(ctx.port, ctx.host, path);
  }
}

/** Renders the paths, CONCURRENCY at a time: pages per second, each latency, how many did not answer 200. */
export async function render(
  ctx: { port: number; host: string },
  urls: string[],
  pid?: number,
): Promise<{ perSecond: number; latencies: number[]; wrong: number; cpuMs: number }> {
  const latencies: number[] = [];
  const cpuBefore = pid ? treeCpuSeconds(pid) : 0;
  let wrong = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < urls.length) {
        const path = urls[next++]!;
        const t = performance.now();
        const res = await getOnce(ctx, path);
        latencies.push(performance.now() - t);
        if (res.status !== 200) wrong++;
      }
    }),
  );
  const cpuMs = pid ? ((treeCpuSeconds(pid) - cpuBefore) * 1000) / urls.length : NaN;
  return { perSecond: urls.length / ((performance.now() - started) / 1000), latencies, wrong, cpuMs };
}

export async function coldRenderRows(ctx: BenchContext): Promise<Row[]> {
  const { file, page } = await writeSameBytesFile(ctx);
  const floorPort = ctx.port + 2;
  const floor = await startFloor(ctx.root, floorPort, visibleHtml(page.body));
  try {
    return await measure(ctx, { port: floorPort, host: `127.0.0.1:${floorPort}`, pid: floor.pid!, pageBytes: Buffer.byteLength(page.body) });
  } finally {
    stopServer(floor);
    rmSync(file, { force: true });
  }
}

/** The floor's rows: ours against Next's own getServerSideProps render of the same visible HTML, per round. */
function floorRows(
  ours: { perSecond: number; cpuMs: number }[],
  floor: { perSecond: number; cpuMs: number }[],
  bytes: { ours: number; floor: number },
  floorWrong: number,
): Row[] {
  const list = (xs: number[], digits = 0) => xs.map((x) => x.toFixed(digits)).join('/');
  const [op, oc, fp, fc] = [
    median(ours.map((r) => r.perSecond)),
    median(ours.map((r) => r.cpuMs)),
    median(floor.map((r) => r.perSecond)),
    median(floor.map((r) => r.cpuMs)),
  ];
  // the ratio of CPU per page: what a page costs the server, whatever else the machine runs meanwhile
  const ratios = ours.map((o, i) => floor[i]!.cpuMs / o.cpuMs);
  const ratio = median(ratios);
  return [
    {
      figure: 'cold render ÷ Next floor (CPU per page)',
      measured: `${ratio.toFixed(2)}× (ours ${oc.toFixed(2)} ms CPU, ${op.toFixed(0)} pages/s; floor ${fc.toFixed(2)} ms CPU, ${fp.toFixed(0)} pages/s; pairs ${list(ratios, 2)})`,
      budget: '≥ 1.0×',
      ok: ratio >= 1 && floorWrong === 0,
      note: `Next ${NEXT_VERSION} pages-router app (scripts/bench/nextFloor.ts) whose getServerSideProps returns our page's visible HTML (${bytes.floor} bytes answered vs our ${bytes.ours}), ${CONCURRENCY} at a time on the same URLs, ${ours.length} adjacent pairs of rounds of ${PAIR_PAGES} pages (ours first in every other pair); the server process's user + system CPU (/proc) ÷ pages, median of the pairs' floor ÷ ours: ours ${list(
        ours.map((r) => r.cpuMs),
        2,
      )} ms, floor ${list(
        floor.map((r) => r.cpuMs),
        2,
      )} ms; pages/s ours ${list(ours.map((r) => r.perSecond))}, floor ${list(floor.map((r) => r.perSecond))}; the floor answered ${floorWrong} other than 200`,
    },
  ];
}

/**
 * The first pages a started server renders against its warm rate, by the server's CPU per page
 * (pages/s moves with whatever else the machine runs; CPU per page much less): the warm figure is
 * the median of the cold pairs' rounds of ours, measured in the same run after the warm-up.
 */
function firstPagesRow(
  first: { perSecond: number; latencies: number[]; cpuMs: number },
  warmUp: { perSecond: number; cpuMs: number },
  warm: { perSecond: number; cpuMs: number }[],
  start: { warmUp: CacheStats['warmUp']; storedByFirst: number; brandPagesWarmed: number },
): Row {
  const warmCpu = median(warm.map((r) => r.cpuMs));
  const ratio = warmCpu / first.cpuMs;
  const pages = first.latencies.length;
  const atStart = start.warmUp?.rendered
    ? `the server rendered ${start.warmUp.rendered} pages of every brand and template at start, before it accepted connections (WARM_UP_PAGES=${start.warmUp.asked}, ${start.warmUp.ms} ms; neither stored nor sent; the ${start.brandPagesWarmed} of them on the bench's brand left out of its pages)`
    : `no warm-up at start (WARM_UP_PAGES=${start.warmUp?.asked ?? 0}; the default is ${WARM_UP_PAGES_DEFAULT})`;
  return {
    figure: 'cold render, first 400 pages ÷ warm rate',
    measured: `${ratio.toFixed(2)}× (first ${pages}: ${first.cpuMs.toFixed(2)} ms CPU a page, ${first.perSecond.toFixed(0)} pages/s, p50 ${median(first.latencies).toFixed(0)} ms; warm ${warmCpu.toFixed(2)} ms CPU, ${median(warm.map((r) => r.perSecond)).toFixed(0)} pages/s)`,
    budget: '≥ 0.8×',
    // every one of them a miss the server rendered and stored then
    ok: ratio >= 0.8 && start.storedByFirst === pages,
    note: `the first ${pages} never-requested pages the bench server renders after it accepts connections, ${CONCURRENCY} at a time; ${atStart}; ${start.storedByFirst} of them stored by the server meanwhile (each a miss: none was in its page cache); their rate as the server's CPU per page, against the median CPU per page of the cold pairs' rounds of ours (after ${WARM_UP_PAGES} pages of warm-up); the rest of the warm-up: ${warmUp.cpuMs.toFixed(2)} ms CPU a page, ${warmUp.perSecond.toFixed(0)} pages/s`,
  };
}

/** The bench server's page cache counters and its start's warm-up (server.mjs, PAGE_CACHE_STATS). */
interface CacheStats {
  maxBytes: number;
  bytes: number;
  entries: number;
  stored: number;
  evicted: number;
  notFoundSkipped: number;
  largest: number;
  warmUp?: { asked: number; rendered: number; ms: number; pages?: string[] };
}

async function cacheStats(ctx: BenchContext): Promise<CacheStats | null> {
  const res = await get(ctx.port, '127.0.0.1', '/__page-cache');
  return res.status === 200 ? (JSON.parse(res.body) as CacheStats | null) : null;
}

/** The brand's public paths among the pages the server rendered at start (internal /_brand/{brand}… paths). */
export function warmedUpPaths(stats: CacheStats | null, brand: string): Set<string> {
  const prefix = `/_brand/${brand}`;
  const paths = (stats?.warmUp?.pages ?? []).filter((p) => p === prefix || p.startsWith(prefix + '/')).map((p) => p.slice(prefix.length) || '/');
  return new Set(paths);
}

async function measure(ctx: BenchContext, floor: { port: number; host: string; pid: number; pageBytes: number }): Promise<Row[]> {
  const before = await cacheStats(ctx);
  // pages the server rendered at start are left out: the first pages must be ones it has never rendered
  const warmed = warmedUpPaths(before, ctx.brand);
  const all = (await sitemapPaths(ctx)).filter((p) => p !== '/' && p !== '/payday-loans' && !warmed.has(p));
  const urls = spread(all, WARM_UP_PAGES + PAIR_PAGES * COLD_PAIRS);
  const serverDir = join(ctx.root, '.next/server');
  const diskBefore = diskBytes(serverDir);
  const first = await render(ctx, urls.slice(0, Math.min(FIRST_PAGES, WARM_UP_PAGES)), ctx.pid());
  // each of the first pages was a miss: rendered and stored now (none was in the cache before)
  const storedByFirst = ((await cacheStats(ctx))?.stored ?? NaN) - (before?.stored ?? NaN);
  const warmUp = await render(ctx, urls.slice(first.latencies.length, WARM_UP_PAGES), ctx.pid());
  const floorWarmUp = await render(floor, urls.slice(0, WARM_UP_PAGES));
  const floorBytes = Buffer.byteLength((await get(floor.port, floor.host, urls[0]!)).body);
  const rounds: { pages: number; file: number }[] = [];
  const oursCpu: { perSecond: number; cpuMs: number }[] = [];
  const floorCpu: { perSecond: number; cpuMs: number }[] = [];
  let floorWrong = floorWarmUp.wrong;
  const latencies: number[] = [];
  let wrong = first.wrong + warmUp.wrong;
  // ctx.rounds rounds of the static file, each after a group of pairs: its ratio is to the pages/s of that group's rounds of ours
  const perGroup = Math.ceil(COLD_PAIRS / ctx.rounds);
  let group: number[] = [];
  for (let r = 0; r < COLD_PAIRS; r++) {
    const pageUrls = urls.slice(WARM_UP_PAGES + r * PAIR_PAGES, WARM_UP_PAGES + (r + 1) * PAIR_PAGES);
    const oursRound = async () => {
      const round = await render(ctx, pageUrls, ctx.pid());
      latencies.push(...round.latencies);
      wrong += round.wrong;
      oursCpu.push(round);
      group.push(round.perSecond);
    };
    const floorRound = async () => {
      const round = await render(floor, pageUrls, floor.pid);
      floorWrong += round.wrong;
      floorCpu.push(round);
    };
    if (r % 2 === 0) {
      await oursRound();
      await floorRound();
    } else {
      await floorRound();
      await oursRound();
    }
    if (group.length === perGroup || r === COLD_PAIRS - 1) {
      rounds.push({ pages: median(group), file: await rps(ctx, SAME_BYTES_FILE) });
      group = [];
    }
  }
  const rendered = urls.length;
  const diskWritten = diskBytes(serverDir) - diskBefore;
  const sorted = [...latencies].sort((a, b) => a - b);
  const ratio = median(rounds.map((r) => r.pages / r.file));
  const perSecond = median(rounds.map((r) => r.pages));
  const stats = await cacheStats(ctx);
  const perPage = stats && stats.entries ? stats.bytes / stats.entries : NaN;
  return [
    {
      figure: 'cold render ÷ static file rps',
      measured: `${ratio.toFixed(3)} (${perSecond.toFixed(0)} pages/s, p50 ${median(latencies).toFixed(0)} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)]!.toFixed(0)} ms)`,
      budget: '≥ 0.1 (goal ≥ 0.2)',
      ok: ratio >= 0.1 && wrong === 0,
      note: `${COLD_PAIRS} rounds of ${PAIR_PAGES} never-requested sitemap URLs of ${ctx.brand} (${all.length} in its sitemaps), ${CONCURRENCY} at a time, in ${rounds.length} groups each followed by a round of ${SAME_BYTES_FILE} (20 connections, ${ctx.seconds} s), after ${WARM_UP_PAGES} fresh pages of warm-up; median of the groups' ratios (the median pages/s of a group's rounds ÷ the file's rps): ${rounds.map((r) => `${r.pages.toFixed(0)}/${r.file.toFixed(0)}`).join(', ')}; ${wrong} answered other than 200`,
    },
    ...floorRows(oursCpu, floorCpu, { ours: floor.pageBytes, floor: floorBytes }, floorWrong),
    firstPagesRow(first, warmUp, oursCpu, { warmUp: before?.warmUp, storedByFirst, brandPagesWarmed: warmed.size }),
    {
      figure: 'page cache written to disk per page',
      measured: `${kb(diskWritten / rendered)} (${diskWritten} bytes for ${rendered} pages)`,
      budget: '≤ 25 KB',
      ok: diskWritten / rendered <= 25 * 1024,
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
