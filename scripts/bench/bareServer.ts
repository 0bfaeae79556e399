/**
 * A replayed cached page against the limit: a bare node:http server (./bareHttpServer.mjs)
 * sending the same status, headers and bytes. Both are measured by the server process's own CPU
 * time (user + system, the scheduler's nanosecond count: cpuNanos) per request answered, under the same load, so the
 * figure does not depend on how much CPU the load generator takes from the same machine.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import { get } from './context';

/** Headers Node writes for each response itself: not recorded. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** Starts the bare server on `port` with the page's response as `page` answered it. */
export async function startBareServer(root: string, port: number, page: { body: Buffer; headers: Record<string, string | string[] | undefined> }) {
  const headers = Object.fromEntries(Object.entries(page.headers).filter(([k, v]) => v !== undefined && !PER_RESPONSE.has(k)));
  mkdirSync(join(root, '.bench'), { recursive: true });
  const file = join(root, '.bench', 'bare-response.json');
  writeFileSync(file, JSON.stringify({ body: page.body.toString('base64'), headers }));
  const child = spawn('node', [join(root, 'scripts/bench/bareHttpServer.mjs'), String(port), file], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    if ((await get(port, 'bare', '/').catch(() => undefined))?.status === 200) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`the bare node:http server on ${port} did not start`);
}

export const stopBareServer = (child: ChildProcess) => child.kill();

/** CPU seconds (user + system) the process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // fields after the command name (which may hold spaces): utime and stime are the 12th and 13th
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU nanoseconds the process's threads have run so far (/proc/{pid}/task/{tid}/schedstat of every thread, the
 * scheduler's own count), for figures taken over a fraction of a second: /proc/{pid}/stat counts
 * in clock ticks (10 ms), so a 4 s round of 4,000 requests at ~35 µs (~140 ms) reads ±7 % from the
 * tick alone. Falls back to cpuSeconds where the kernel has no schedstat. A thread that ends between
 * two readings takes its count with it (the server's threads live as long as it does).
 */
export function cpuNanos(pid: number): number {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended while the list was read
      }
    }
    if (ns > 0) return ns;
  } catch {
    // no such process, or no schedstat
  }
  return cpuSeconds(pid) * 1e9;
}

/**
 * Requests/s and the server's CPU µs per request, under 20 connections for `seconds`: as many
 * requests as the server answers, or `rate` requests/s in all (the same offered load for two
 * servers, so that neither is credited with the batching a bigger share of a busy machine buys).
 */
export async function loadWithCpu(
  pid: number,
  port: number,
  host: string,
  path: string,
  seconds: number,
  rate?: number,
  /** more request headers (a cookie) */
  headers: Record<string, string> = {},
): Promise<{ rps: number; cpuUs: number; bytesPerResponse: number }> {
  const before = cpuNanos(pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    headers: { host, ...headers },
    connections: 20,
    duration: seconds,
    pipelining: 1,
    ...(rate ? { overallRate: rate } : {}),
  });
  const usedNs = cpuNanos(pid) - before;
  if (result.non2xx || result.errors) throw new Error(`${path} (${host}): ${result.non2xx} responses with an unexpected status, ${result.errors} errors`);
  return { rps: result.requests.average, cpuUs: usedNs / 1e3 / result.requests.total, bytesPerResponse: result.throughput.total / result.requests.total };
}

/** Load average over the last minute (/proc/loadavg): how busy the machine was while a figure was taken. */
export const loadAverage = (): number => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/**
 * Runs `work` with the load generator (this process, every thread) on one core and the servers
 * (every thread, their V8 workers included) on the other, then gives every process all cores
 * again. On a 2-core machine a load generator and a server left to the scheduler share a core in
 * some rounds and not in others, and a server's CPU per request moved ±30 % from one round to
 * the next (the same bare server: 28–50 µs); kept apart, adjacent rounds of the replay and the bare
 * server agreed within a few per cent. Without taskset or a second core, `work` runs as it is.
 * A server started inside `work` inherits this process's core: start the servers first.
 */
export async function onSeparateCores<T>(pids: number[], work: () => Promise<T>): Promise<{ result: T; pinned: boolean }> {
  const all = `0-${availableParallelism() - 1}`;
  const pin = (pid: number, cpus: string) => execFileSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });
  let pinned = false;
  if (availableParallelism() >= 2) {
    try {
      pin(process.pid, '0');
      for (const pid of pids) pin(pid, '1');
      pinned = true;
    } catch {
      // no taskset here: the rounds run wherever the scheduler puts them
      for (const pid of [process.pid, ...pids]) {
        try {
          pin(pid, all);
        } catch {
          /* no taskset */
        }
      }
    }
  }
  try {
    return { result: await work(), pinned };
  } finally {
    if (pinned)
      for (const pid of [process.pid, ...pids]) {
        try {
          pin(pid, all);
        } catch {
          /* the server has gone */
        }
      }
  }
}
