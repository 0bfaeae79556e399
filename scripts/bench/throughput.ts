/**
 * Cached brand page vs a static file of the same bytes (public/static/, served by the same
 * server) and vs a bare node:http server sending the same response (./bareServer.ts: the limit a
 * Node server can reach), alternating, median of the rounds. No proxy runs on this path (the front door
 * routes every host), so the "direct /_brand/…" figure is this one.
 * A fresh hit is answered by server.mjs from the page cache (engine/cache/cachedPageReplay.mjs);
 * the same page through Next alone (a second server, PAGE_CACHE_REPLAY=0) is measured in the same
 * rounds, for comparison.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBareServer, stopBareServer, loadWithCpu } from './bareServer';
import { get, median, rps, startServer, stopServer, type BenchContext, type Row } from './context';

export const CACHED_PAGE = '/payday-loans';
export const SAME_BYTES_FILE = '/static/bench-page.html';

/**
 * Writes the cached page's bytes to public/static/ as the static file to compare with, and
 * restarts the bench server (Next lists public/ when it starts). Returns the file and its size;
 * the caller removes the file when done.
 */
export async function writeSameBytesFile(ctx: BenchContext): Promise<{ file: string; bytes: number; page: Awaited<ReturnType<typeof get>> }> {
  for (let i = 0; i < 3; i++) await get(ctx.port, ctx.host, CACHED_PAGE);
  const page = await get(ctx.port, ctx.host, CACHED_PAGE);
  if (page.status !== 200) throw new Error(`${CACHED_PAGE}: ${page.status}`);
  const file = join(ctx.root, 'public', SAME_BYTES_FILE);
  writeFileSync(file, page.body);
  await ctx.restart();
  return { file, bytes: Buffer.byteLength(page.body), page };
}

export async function throughputRows(ctx: BenchContext): Promise<Row[]> {
  const { file, bytes, page } = await writeSameBytesFile(ctx);
  const nextOnly = { ...ctx, port: ctx.port + 7 };
  const barePort = ctx.port + 8;
  let nextOnlyServer: Awaited<ReturnType<typeof startServer>> | undefined;
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  try {
    nextOnlyServer = await startServer(ctx.root, nextOnly.port, { PAGE_CACHE_REPLAY: '0' });
    // the replayed response as a client gets it: the same status, headers and bytes
    bare = await startBareServer(ctx.root, barePort, { body: Buffer.from(page.body, 'utf8'), headers: page.headers });
    for (const c of [ctx, nextOnly]) {
      for (let i = 0; i < 3; i++) await get(c.port, c.host, CACHED_PAGE);
      await rps(c, CACHED_PAGE); // warm-up round, not counted
    }
    await loadWithCpu(bare.pid!, barePort, ctx.host, CACHED_PAGE, ctx.seconds); // warm-up round, not counted
    const pageRps: number[] = [];
    const fileRps: number[] = [];
    const nextRps: number[] = [];
    const bareRps: number[] = [];
    const pageCpu: number[] = [];
    const bareCpu: number[] = [];
    for (let r = 0; r < ctx.rounds; r++) {
      const replayed = await loadWithCpu(ctx.pid(), ctx.port, ctx.host, CACHED_PAGE, ctx.seconds);
      pageRps.push(replayed.rps);
      pageCpu.push(replayed.cpuUs);
      fileRps.push(await rps(ctx, SAME_BYTES_FILE));
      nextRps.push(await rps(nextOnly, CACHED_PAGE));
      const reference = await loadWithCpu(bare.pid!, barePort, ctx.host, CACHED_PAGE, ctx.seconds);
      bareRps.push(reference.rps);
      bareCpu.push(reference.cpuUs);
    }
    const [p, f, n, b] = [median(pageRps), median(fileRps), median(nextRps), median(bareRps)];
    const [pc, bc] = [median(pageCpu), median(bareCpu)];
    const ratio = p / f;
    const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join('/');
    return [
      {
        figure: 'cached brand page rps ÷ static file rps',
        measured: `${ratio.toFixed(2)} (${p.toFixed(0)} vs ${f.toFixed(0)})`,
        budget: '≥ 0.5 (goal ≥ 0.8)',
        ok: ratio >= 0.5,
        note: `${CACHED_PAGE} vs ${SAME_BYTES_FILE} (the same ${bytes} bytes), 20 connections, ${ctx.seconds} s each, ${ctx.rounds} rounds alternating, medians: page ${pageRps.map((x) => x.toFixed(0)).join('/')}, file ${fileRps.map((x) => x.toFixed(0)).join('/')}`,
      },
      {
        figure: 'the same with the proxy taken out (direct)',
        measured: `${ratio.toFixed(2)} — the row above: no proxy runs for a cached page`,
      },
      {
        figure: 'bare node:http server, the same response (reference)',
        measured: `${b.toFixed(0)} rps, ${bc.toFixed(0)} µs CPU per request`,
        note: `scripts/bench/bareHttpServer.mjs on port ${barePort}: the replayed page's status, headers and ${bytes} bytes, written with writeHead + end; rounds ${list(bareRps)} rps, ${list(bareCpu)} µs`,
      },
      {
        figure: 'replayed cached page CPU ÷ bare node:http CPU',
        measured: `${(pc / bc).toFixed(2)} (${pc.toFixed(0)} vs ${bc.toFixed(0)} µs per request; ${p.toFixed(0)} vs ${b.toFixed(0)} rps)`,
        budget: '≤ 1.5',
        ok: pc / bc <= 1.5,
        note: `the server process's user + system CPU (/proc/{pid}/stat) over each round ÷ requests answered, medians; replay rounds ${list(pageCpu)} µs`,
      },
      {
        figure: 'the same page through Next alone (PAGE_CACHE_REPLAY=0)',
        measured: `${(n / f).toFixed(2)} (${n.toFixed(0)} vs ${f.toFixed(0)})`,
        note: `a second server of the same build without server.mjs answering hits; rounds ${nextRps.map((x) => x.toFixed(0)).join('/')}`,
      },
    ];
  } finally {
    if (bare) stopBareServer(bare);
    if (nextOnlyServer) stopServer(nextOnlyServer);
    rmSync(file, { force: true });
  }
}
