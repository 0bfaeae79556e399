/**
 * What every bench row producer gets (scripts/bench.ts): the production server started on
 * BENCH_PORT behind server.mjs, as in production, and helpers to load it. A row is one figure of
 * the bench table: what was measured, against its budget.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { join } from 'node:path';
import autocannon from 'autocannon';

export interface Row {
  /** the figure, e.g. "cached brand page rps ÷ static file rps" */
  figure: string;
  /** what was measured, as printed */
  measured: string;
  /** the budget, as printed ("≥ 0.5"), if the figure has one */
  budget?: string;
  /** whether the measurement is within the budget (undefined: no budget) */
  ok?: boolean;
  /** how it was measured, printed under the table */
  note?: string;
}

export interface BenchContext {
  root: string;
  port: number;
  brand: string;
  host: string;
  seconds: number;
  rounds: number;
  /** figures one producer measured that a later one divides by (e.g. the static file's rps) */
  shared: Map<string, number>;
  /** the server's process id (its CPU time is read from /proc) */
  pid(): number;
  /** restart the server (after a producer changed public/, which Next lists at start) */
  restart(): Promise<void>;
  stop(): void;
}

export type RowProducer = (ctx: BenchContext) => Promise<Row[]>;

/** `ready: false` returns once the process is spawned, without asking it for anything (idleMemory.ts waits for a connection itself). */
export async function startServer(cwd: string, port: number, env: Record<string, string> = {}, { ready = true } = {}): Promise<ChildProcess> {
  // BENCH_NODE_ARGS: node's own flags for our server (V8 flags such as the young generation's size cannot go in NODE_OPTIONS)
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const [cmd, args] = existsSync(join(cwd, 'server.mjs')) ? ['node', [...nodeArgs, 'server.mjs']] : ['npx', ['next', 'start', '-p', String(port)]];
  const child = spawn(cmd, args, {
    cwd,
    stdio: 'ignore',
    detached: true,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      LOANSITES_DB_FILE: join(cwd, '.bench/bench.sqlite'),
      DATABASE_URL: '',
      RATE_LIMIT_SESSION_TRACE: '100000',
      ...env,
    },
  });
  if (!ready) return child;
  for (let i = 0; i < 150; i++) {
    if ((await get(port, 'ipaydayloans.localhost', '/static/ping.txt').catch(() => undefined))?.status) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server on ${port} did not start`);
}

export const stopServer = (child: ChildProcess) => {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    /* already gone */
  }
};

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One GET with a Host header (fetch cannot set one): status, body and headers. */
export function get(
  port: number,
  host: string,
  path: string,
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Requests/s of one path under 20 connections for ctx.seconds; throws on an unexpected status. */
export async function rps(ctx: BenchContext, path: string, host = ctx.host): Promise<number> {
  const result = await autocannon({ url: `http://127.0.0.1:${ctx.port}${path}`, headers: { host }, connections: 20, duration: ctx.seconds, pipelining: 1 });
  if (result.non2xx || result.errors) throw new Error(`${path} (${host}): ${result.non2xx} responses with an unexpected status, ${result.errors} errors`);
  return result.requests.average;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
