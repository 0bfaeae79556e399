/**
 * Cached brand page vs a static file of the same bytes (public/static/, served by the same
 * server) and vs a bare node:http server sending the same response (./bareServer.ts: the limit a
 * Node server can reach), alternating, median of the rounds, with the load generator on one core
 * and the servers on the other (onSeparateCores: left to the scheduler, a pair's ratio scattered
 * 0.6–1.4). The CPU a replayed hit costs is
 * compared with the bare server's in adjacent pairs of rounds (which goes first alternates), at
 * full load, and again at the same offered rate (CPU_RATE) as a cross-check: on a shared machine
 * a server's CPU per request falls as its share of the machine rises (more requests per
 * event-loop turn), so the figure moves with how busy the machine is (its load average is shown).
 * A round after Next's own work in the same process may also pay V8's heap-shrinking full GC of
 * Next's garbage (`--trace-gc`: "Mark-Compact (reduce)", 100–800 ms on this heap), which no bare
 * server has: such a pair is an outlier, which the median of the pairs' ratios leaves aside. There are
 * CPU_PAIRS of them (BENCH_CPU_PAIRS, default 5; Next's own rounds come before every other one), so
 * that two outliers still leave the median on a steady-state pair. No proxy runs on this path (the front door
 * routes every host), so the "direct /_brand/…" figure is this one.
 * A fresh hit is answered by server.mjs from the page cache (engine/cache/cachedPageReplay.mjs);
 * the same page through Next alone (a second server, PAGE_CACHE_REPLAY=0) is measured in the same
 * rounds, for comparison.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { loadAverage, loadWithCpu, onSeparateCores, startBareServer, stopBareServer } from './bareServer';
import { get, median, rps, startServer, stopServer, type BenchContext, type Row } from './context';

/**
 * A page under no experiment: the payday brand's /payday-loans runs the demo experiment, whose
 * first visits are assigned and sent a cookie (that cost has its own row, experimentHit.ts).
 */
export const CACHED_PAGE = '/';
export const SAME_BYTES_FILE = '/static/bench-page.html';
/** Requests/s offered to both servers when their CPU per request is compared: well under what either answers on a busy 2-core machine. */
export const CPU_RATE = Number(process.env.BENCH_CPU_RATE ?? 1000);
/** Adjacent replay/bare pairs of rounds the CPU ratio is the median of (at least 3). */
export const CPU_PAIRS = Math.max(3, Number(process.env.BENCH_CPU_PAIRS ?? 5));

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
    const pageRps: number[] = [];
    const fileRps: number[] = [];
    const nextRps: number[] = [];
    const bareRps: number[] = [];
    /** per pair of adjacent rounds: replay ÷ bare CPU per request, at full load and at CPU_RATE */
    const fullRatio: number[] = [];
    const rateRatio: number[] = [];
    const pageCpu: number[] = [];
    const bareCpu: number[] = [];
    const pageAtRate: { rps: number; cpuUs: number }[] = [];
    const bareAtRate: { rps: number; cpuUs: number }[] = [];
    const loads: number[] = [];
    // every round with the load generator on one core and the servers on the other (onSeparateCores)
    const { pinned } = await onSeparateCores([ctx.pid(), nextOnlyServer.pid!, bare.pid!], async () => {
      for (const c of [ctx, nextOnly]) {
        for (let i = 0; i < 3; i++) await get(c.port, c.host, CACHED_PAGE);
        await rps(c, CACHED_PAGE); // warm-up round, not counted
      }
      await loadWithCpu(bare!.pid!, barePort, ctx.host, CACHED_PAGE, ctx.seconds); // warm-up round, not counted
      /** the replay and the bare server, one after the other, the replay first in even rounds */
      const pair = async (r: number, rate?: number) => {
        const seconds = Math.ceil(ctx.seconds / 2);
        const replayRound = () => loadWithCpu(ctx.pid(), ctx.port, ctx.host, CACHED_PAGE, seconds, rate);
        const bareRound = () => loadWithCpu(bare!.pid!, barePort, ctx.host, CACHED_PAGE, seconds, rate);
        if (r % 2 === 0) {
          const replayed = await replayRound();
          return { replayed, reference: await bareRound() };
        }
        const reference = await bareRound();
        return { replayed: await replayRound(), reference };
      };
      for (let r = 0; r < CPU_PAIRS; r++) {
        // Next serves in the same process before every other pair (ctx.rounds of them): the replay is
        // measured as it runs beside Next, and the pairs between show it without a fresh heap of Next's garbage to shrink.
        if (r % 2 === 0 && fileRps.length < ctx.rounds) {
          fileRps.push(await rps(ctx, SAME_BYTES_FILE));
          nextRps.push(await rps(nextOnly, CACHED_PAGE));
        }
        const full = await pair(r);
        pageRps.push(full.replayed.rps);
        pageCpu.push(full.replayed.cpuUs);
        bareRps.push(full.reference.rps);
        bareCpu.push(full.reference.cpuUs);
        fullRatio.push(full.replayed.cpuUs / full.reference.cpuUs);
        const atRate = await pair(r, CPU_RATE);
        pageAtRate.push(atRate.replayed);
        bareAtRate.push(atRate.reference);
        rateRatio.push(atRate.replayed.cpuUs / atRate.reference.cpuUs);
        loads.push(loadAverage());
      }
    });
    const [p, f, n, b] = [median(pageRps), median(fileRps), median(nextRps), median(bareRps)];
    const [pc, bc] = [median(pageCpu), median(bareCpu)];
    const [cpuRatio, fullCpuRatio] = [median(rateRatio), median(fullRatio)];
    const ratio = p / f;
    const list = (xs: number[], digits = 0) => xs.map((x) => x.toFixed(digits)).join('/');
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
        measured: `${b.toFixed(0)} rps, ${bc.toFixed(0)} µs CPU per request (${median(bareAtRate.map((x) => x.cpuUs)).toFixed(0)} µs at ${CPU_RATE} rps)`,
        note: `scripts/bench/bareHttpServer.mjs on port ${barePort}: the replayed page's status, headers and ${bytes} bytes, written with writeHead + end, on the same Node with the same (no) flags; rounds ${list(bareRps)} rps, ${list(bareCpu)} µs at full load, ${list(bareAtRate.map((x) => x.cpuUs))} µs at ${list(bareAtRate.map((x) => x.rps))} rps`,
      },
      {
        figure: 'replayed cached page CPU ÷ bare node:http CPU',
        measured: `${fullCpuRatio.toFixed(2)} (${pc.toFixed(0)} vs ${bc.toFixed(0)} µs per request; ${p.toFixed(0)} vs ${b.toFixed(0)} rps); ${cpuRatio.toFixed(2)} at ${CPU_RATE} rps each`,
        budget: '≤ 1.1',
        ok: fullCpuRatio <= 1.1,
        note: `the server process's user + system CPU (its threads' schedstat, ns: cpuNanos) over a round ÷ requests answered; ${pinned ? 'the load generator on core 0, every server on core 1 (taskset)' : 'NOT kept on separate cores (no taskset or one core): the pairs may scatter ±30 %'}; the replay and the bare server in adjacent rounds (alternating which goes first), median of the ${CPU_PAIRS} pairs' ratios (${Math.ceil(ctx.seconds / 2)} s rounds; Next's own rounds before pairs ${list(Array.from({ length: fileRps.length }, (_, i) => 2 * i + 1))}): at full load ${list(fullRatio, 2)} (replay rounds ${list(pageCpu)} µs at ${list(pageRps)} rps), at the same offered ${CPU_RATE} rps (BENCH_CPU_RATE; a cross-check, not held to the budget: a request per event-loop turn pays the core's wake-up, and these pairs scatter ±30 % even on separate cores) ${list(rateRatio, 2)} (${list(pageAtRate.map((x) => x.cpuUs))} vs ${list(bareAtRate.map((x) => x.cpuUs))} µs); load average ${list(loads, 1)} on ${availableParallelism()} cores`,
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
