/**
 * Idle memory of one instance on the embedded defaults (npm start's configuration), beside a stock
 * Next app (Next's minimal pages-router app, firstLoadJs.ts) measured the same way in the same run,
 * each started fresh, three ways:
 * - at start: RSS (/proc VmRSS, the process and its children) 5 s after the server first accepts a
 *   connection, nothing asked of it (no page rendered by a visitor). Ours accepts connections only
 *   once its start-up work is done, which counts: one 404 rendered in process to learn the error
 *   page's script hashes and, unless WARM_UP_PAGES is 0, the render path's warm-up (server.mjs; the row says which);
 * - after one page of each brand: the home page of every brand, one at a time (the stock app its
 *   one page as many times), RSS 5 s after the last;
 * - after a warm-up (below).
 *
 * After a warm-up: the same processes, then 200 requests over every brand (the stock app: as many
 * to its page), RSS 2 s after the last and after 30 s without requests, then a full GC asked for
 * through the inspector (both run with it on loopback, both at start too)
 * and process.memoryUsage() read (where the rest goes: heap, external, array buffers). Then our
 * server reads every brand's sitemap index and sitemaps once (built from scratch: the files a
 * previous run left in .next/seo-files are removed first) and is read again: what sitemaps leave
 * held once served (engine/site/seo/seoFiles.ts keeps them on disk and at most SEO_FILES_MEMORY_BYTES in memory).
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { WARM_UP_PAGES_DEFAULT, warmUpCountOf } from '../../engine/frontDoor/warmUp';
import { accepting } from '../../tests/support/accepting';
import { get, startServer, stopServer, type BenchContext, type Row } from './context';
import { buildMinimalApp } from './firstLoadJs';
import { startNextApp, treeRssBytes } from './nextFloor';

const WARM_UP = 200;
/** Ours over the stock Next app, at start and after one page of each brand. */
const IDLE_RATIO_BUDGET = 1.3;
/** How long after the first connection (or the last page) the resident size is read. */
const SETTLE_MS = 5000;
/**
 * What reading every sitemap may add to the idle figure: the sitemaps kept in memory (at most
 * 16 MiB) and what the C allocator keeps of the freed ones (measured: its main arena grew by
 * ~39 MiB, ~15 MiB of it live Buffers). Sitemaps held for the life of the process were ~300 MiB.
 */
const SITEMAPS_GROWTH_BUDGET = 64 * 1024 * 1024;
const MiB = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;

interface Usage {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

/** Through the inspector: a full GC (when asked), then process.memoryUsage(). */
async function inspect(inspectPort: number, gc: boolean): Promise<Usage> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 0;
  const call = (method: string, params: object = {}) =>
    new Promise<{ result?: { result?: { value?: unknown } } }>((resolve) => {
      const mine = ++id;
      ws.addEventListener('message', function on(ev) {
        const msg = JSON.parse(String(ev.data)) as { id?: number };
        if (msg.id !== mine) return;
        ws.removeEventListener('message', on);
        resolve(msg as never);
      });
      ws.send(JSON.stringify({ id: mine, method, params }));
    });
  try {
    if (gc) await call('HeapProfiler.collectGarbage');
    const res = await call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
    return JSON.parse(String(res.result?.result?.value)) as Usage;
  } finally {
    ws.close();
  }
}

/**
 * What visitors ask for: every brand's home page and the pages it links to, spread so that `count`
 * requests cover every brand (sitemaps, which a crawler reads once in a while and which are kept
 * built, are left out: idle memory is what pages cost).
 */
const brandIds = (root: string) =>
  readdirSync(join(root, 'brands'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''));

export async function warmUpRequests(ctx: { root: string }, port: number, count: number): Promise<{ host: string; path: string }[]> {
  const brands = brandIds(ctx.root);
  const per = Math.ceil(count / brands.length);
  const out: { host: string; path: string }[] = [];
  for (const brand of brands) {
    const host = `${brand}.localhost:${port}`;
    const home = await get(port, host, '/');
    const links = [...new Set([...home.body.matchAll(/href="(\/[a-z0-9][^"#?.]*)"/g)].map((m) => m[1]!))].filter((p) => !p.startsWith('/api/'));
    for (const path of ['/', ...links].slice(0, per)) out.push({ host, path });
  }
  return out.slice(0, count);
}

/** Every brand's sitemap index and each sitemap it lists, once; the number of files and bytes read. */
async function readEverySitemap(root: string, port: number): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const brand of brandIds(root)) {
    const host = `${brand}.localhost:${port}`;
    const index = await get(port, host, '/sitemap.xml');
    if (index.status !== 200) throw new Error(`${host}/sitemap.xml: status ${index.status}`);
    const count = index.body.match(/<sitemap>/g)?.length ?? 0;
    for (let n = 0; n < count; n++) {
      const res = await get(port, host, `/sitemaps/${n}.xml`);
      if (res.status !== 200) throw new Error(`${host}/sitemaps/${n}.xml: status ${res.status}`);
      files++;
      bytes += Buffer.byteLength(res.body);
    }
  }
  return { files, bytes };
}

/**
 * How long the server is left without requests before its idle figure: long enough for V8's
 * memory reducer (it starts collecting a few seconds after allocation slows down) to run, as it
 * would on a quiet instance; the full GC after it is the floor no waiting could go below.
 */
const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 30) * 1000;

/** What the server's start-up warm-up was in this run: WARM_UP_PAGES from the bench's environment, read as server.mjs reads it (its default when unset). */
const warmUpSaid = () => {
  const asked = warmUpCountOf(process.env);
  const count = 'count' in asked ? asked.count : 0;
  const how = process.env.WARM_UP_PAGES?.trim()
    ? `WARM_UP_PAGES=${process.env.WARM_UP_PAGES.trim()}`
    : `WARM_UP_PAGES unset: the default, ${WARM_UP_PAGES_DEFAULT}`;
  return count
    ? `the render path warmed up with ${count} pages of every brand and template, neither stored nor sent (${how})`
    : `no render-path warm-up (${how})`;
};

const settled = async (pid: number) => {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return treeRssBytes(pid);
};

/** RSS 5 s after the first connection, then 5 s after `pages` (one at a time). */
async function startAndFirstPages(pid: number, port: number, pages: { host: string; path: string }[]): Promise<{ atStart: number; afterPages: number }> {
  await accepting(port);
  const atStart = await settled(pid);
  for (const p of pages) {
    const res = await get(port, p.host, p.path);
    if (res.status !== 200) throw new Error(`${p.host}${p.path}: status ${res.status}`);
  }
  return { atStart, afterPages: await settled(pid) };
}

async function reading(pid: number, inspectPort: number): Promise<{ rss: number; idle: number; afterGc: Usage }> {
  await new Promise((r) => setTimeout(r, 2000));
  const rss = treeRssBytes(pid);
  await new Promise((r) => setTimeout(r, Math.max(0, IDLE_MS - 2000)));
  const idle = treeRssBytes(pid);
  const afterGc = await inspect(inspectPort, true);
  return { rss, idle, afterGc: { ...afterGc, rss: treeRssBytes(pid) } };
}

export async function idleMemoryRows(ctx: BenchContext): Promise<Row[]> {
  const port = ctx.port + 3;
  const inspectPort = ctx.port + 4;
  const stockPort = ctx.port + 5;
  const stockInspect = ctx.port + 6;
  rmSync(join(ctx.root, '.next/seo-files'), { recursive: true, force: true });
  const homes = brandIds(ctx.root).map((brand) => ({ host: `${brand}.localhost:${port}`, path: '/' }));
  // no readiness request: the first thing asked of the server is the bench's
  const server = await startServer(ctx.root, port, { NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}`, RATE_LIMIT_SITEMAP: '100000' }, { ready: false });
  let first: Awaited<ReturnType<typeof startAndFirstPages>>;
  let ours: Awaited<ReturnType<typeof reading>>;
  let afterSitemaps: Awaited<ReturnType<typeof reading>>;
  let sitemaps: { files: number; bytes: number };
  let requests: { host: string; path: string }[];
  try {
    first = await startAndFirstPages(server.pid!, port, homes);
    requests = await warmUpRequests(ctx, port, WARM_UP);
    for (const r of requests) await get(port, r.host, r.path);
    ours = await reading(server.pid!, inspectPort);
    sitemaps = await readEverySitemap(ctx.root, port);
    afterSitemaps = await reading(server.pid!, inspectPort);
  } finally {
    stopServer(server);
  }
  const stock = await startNextApp(ctx.root, buildMinimalApp(ctx.root), stockPort, { NODE_OPTIONS: `--inspect=127.0.0.1:${stockInspect}` }, { ready: false });
  let stockFirst: Awaited<ReturnType<typeof startAndFirstPages>>;
  let reference: Awaited<ReturnType<typeof reading>>;
  try {
    stockFirst = await startAndFirstPages(
      stock.pid!,
      stockPort,
      homes.map(() => ({ host: '127.0.0.1', path: '/' })),
    );
    for (let i = 0; i < requests.length; i++) await get(stockPort, '127.0.0.1', '/');
    reference = await reading(stock.pid!, stockInspect);
  } finally {
    stopServer(stock);
  }
  const split = (u: Usage) => `heap ${MiB(u.heapUsed)} of ${MiB(u.heapTotal)}, external ${MiB(u.external)} (array buffers ${MiB(u.arrayBuffers)})`;
  const ratio = (a: number, b: number) => a / b;
  const both = `both started fresh with the inspector on loopback (the warm-up row's full GC), RSS of the process and its children (/proc VmRSS); Next's minimal pages-router app by next start on port ${stockPort}`;
  return [
    {
      figure: 'idle memory at start, no page rendered (÷ stock Next app)',
      measured: `${ratio(first.atStart, stockFirst.atStart).toFixed(2)}× (${MiB(first.atStart)} vs ${MiB(stockFirst.atStart)})`,
      budget: `≤ ${IDLE_RATIO_BUDGET}×`,
      ok: ratio(first.atStart, stockFirst.atStart) <= IDLE_RATIO_BUDGET,
      note: `RSS ${SETTLE_MS / 1000} s after the server first accepted a TCP connection, nothing requested; ours listens only once its start-up work is done, so this is read after it: one 404 rendered in process (server.mjs learnErrorPageHashes) and ${warmUpSaid()}; ${both}`,
    },
    {
      figure: 'idle memory after one page of each brand (÷ stock Next app)',
      measured: `${ratio(first.afterPages, stockFirst.afterPages).toFixed(2)}× (${MiB(first.afterPages)} vs ${MiB(stockFirst.afterPages)})`,
      budget: `≤ ${IDLE_RATIO_BUDGET}×`,
      ok: ratio(first.afterPages, stockFirst.afterPages) <= IDLE_RATIO_BUDGET,
      note: `then each of the ${homes.length} brands' home page once, one at a time (the stock app: its page ${homes.length} times), RSS ${SETTLE_MS / 1000} s after the last; ${both}`,
    },
    {
      figure: 'idle memory, one instance (embedded defaults)',
      measured: `${MiB(ours.idle)} RSS after ${IDLE_MS / 1000} s idle (${ratio(ours.idle, reference.idle).toFixed(2)}× the stock Next app); ${MiB(ours.rss)} 2 s after the last of ${requests.length} requests, ${MiB(ours.afterGc.rss)} after a full GC (stock Next app: ${MiB(reference.idle)} idle; ${MiB(reference.rss)}, ${MiB(reference.afterGc.rss)})`,
      budget: '≤ 150 MiB idle',
      ok: ours.idle <= 150 * 1024 * 1024,
      note: `the same server.mjs (SQLite, embedded geocoder, in-memory page cache at its default bound) on port ${port}, then ${requests.length} requests over every brand (its home page and the pages it links to), one at a time, RSS (/proc VmRSS) 2 s later and after ${IDLE_MS / 1000} s without requests (BENCH_IDLE_SECONDS), then a full GC through the inspector: ours ${split(ours.afterGc)}; Next's minimal app (next start) after as many requests to its page: ${split(reference.afterGc)}`,
    },
    {
      figure: "idle memory after every brand's sitemaps were read once",
      measured: `${MiB(afterSitemaps.afterGc.rss)} after a full GC (${MiB(afterSitemaps.afterGc.rss - ours.afterGc.rss)} over the idle figure; ${sitemaps.files} sitemaps, ${MiB(sitemaps.bytes)} read; ${MiB(afterSitemaps.rss)} before the GC)`,
      budget: `≤ idle + ${MiB(SITEMAPS_GROWTH_BUDGET)}`,
      ok: afterSitemaps.afterGc.rss - ours.afterGc.rss <= SITEMAPS_GROWTH_BUDGET,
      note: `the same server, then every brand's /sitemap.xml and each /sitemaps/{n}.xml it lists, one at a time, built from scratch (.next/seo-files removed before the start), RSS 2 s later and after a full GC: ${split(afterSitemaps.afterGc)}`,
    },
  ];
}
