/**
 * What a sitemap request costs the server (engine/site/seo/seoFiles.ts), and what 100 clients that never
 * read one cost it (engine/http/slowClients.mjs). On a server of its own, started fresh, so the
 * first request really is the first: its CPU time (utime + stime from /proc) around each request.
 */
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { rssOf, slowReaderRun } from '../../tests/support/slowReaders';
import { get, median, startServer, stopServer, type BenchContext, type Row } from './context';

const TICK_MS = 10; // /proc/{pid}/stat counts CPU in clock ticks of 10 ms (CLK_TCK 100)
const REPEATS = 20;
const MB = 1024 * 1024;

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** Wall and server CPU time of one GET. */
async function timed(pid: number, port: number, host: string, path: string): Promise<{ ms: number; cpu: number; bytes: number }> {
  const cpu = cpuMs(pid);
  const t = performance.now();
  const res = await get(port, host, path);
  if (res.status !== 200) throw new Error(`${path}: status ${res.status}`);
  return { ms: performance.now() - t, cpu: cpuMs(pid) - cpu, bytes: Buffer.byteLength(res.body) };
}

export async function sitemapRows(ctx: BenchContext): Promise<Row[]> {
  const port = Number(process.env.BENCH_SITEMAP_PORT ?? ctx.port + 9);
  const host = `${ctx.brand}.localhost`;
  const server: ChildProcess = await startServer(ctx.root, port, { RATE_LIMIT_SITEMAP: '100000' });
  try {
    const pid = server.pid!;
    // The first request lists the brand's pages (routes and content) and builds sitemap 0; the
    // first of sitemap 1 builds it from the same list.
    const first0 = await timed(pid, port, host, '/sitemaps/0.xml');
    const first1 = await timed(pid, port, host, '/sitemaps/1.xml');
    const cpuBefore = cpuMs(pid);
    const again: number[] = [];
    for (let i = 0; i < REPEATS; i++) again.push((await timed(pid, port, host, `/sitemaps/1.xml?n=${i}`)).ms);
    const cpuEach = (cpuMs(pid) - cpuBefore) / REPEATS;

    await get(port, host, '/about');
    const run = await slowReaderRun({ port, pid, host, path: '/sitemaps/1.xml', count: 100, deadlineMs: 40_000, probe: () => get(port, host, '/about') });
    const grown = (run.rssPeak - run.rssBefore) / MB;
    const note = `fresh server, ${host}: first request of /sitemaps/0.xml (lists the brand's pages, then builds), first of /sitemaps/1.xml (builds), then ${REPEATS} repeats of /sitemaps/1.xml (each with a new ?n=, which is ignored); CPU = the server's utime + stime (/proc, 10 ms ticks)`;
    return [
      {
        figure: 'sitemap request, first (listing + build)',
        measured: `${first0.ms.toFixed(0)} ms, ${first0.cpu} ms CPU (${(first0.bytes / MB).toFixed(1)} MB)`,
        note,
      },
      { figure: 'sitemap request, first (build)', measured: `${first1.ms.toFixed(0)} ms, ${first1.cpu} ms CPU (${(first1.bytes / MB).toFixed(1)} MB)` },
      {
        figure: 'sitemap request, repeated',
        measured: `median ${median(again).toFixed(1)} ms, ${cpuEach.toFixed(1)} ms CPU each`,
        budget: '≤ 20 ms CPU',
        ok: cpuEach <= 20,
      },
      {
        figure: '100 clients not reading a 4 MB sitemap: server RSS growth',
        measured: `${grown.toFixed(0)} MB (${(run.rssBefore / MB).toFixed(0)} → peak ${(run.rssPeak / MB).toFixed(0)} MB, ${(rssOf(pid) / MB).toFixed(0)} MB after); all cut off after ${run.closedAfterMs === undefined ? '> 40' : (run.closedAfterMs / 1000).toFixed(1)} s; /about meanwhile ${run.probeMs} ms`,
        budget: '< 150 MB, cut off ≤ send timeout + 2 s',
        ok: grown < 150 && run.closedAfterMs !== undefined && run.closedAfterMs <= 17_000,
        note: '100 connections each send two pipelined GET /sitemaps/1.xml and read nothing; RSS sampled every 100 ms; cut off = from the moment every client had answer bytes waiting until the server held none of their connections; the send timeout is its default (SEND_TIMEOUT_MS, 15 s)',
      },
    ];
  } finally {
    stopServer(server);
  }
}
