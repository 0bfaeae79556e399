/**
 * A real Redis for one test file: Debian's redis-server with the shipped deploy/redis.conf
 * (maxmemory, LRU, keyspace notifications), on a free loopback port, data dir in a temp dir.
 * Nothing is skipped: when redis-server is missing the test fails and says how to install it.
 *
 *   const redis = await startRedis();   // in beforeAll → redis.url
 *   await redis.stop();                 // in afterAll
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, isPortFree } from './ports';

export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

export interface RunningRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** One PING over a raw socket: true when Redis answers PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.setTimeout(500);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => (socket.destroy(), resolve(d.toString().startsWith('+PONG'))));
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => (socket.destroy(), resolve(false)));
  });
}

export async function startRedis(opts: { port?: number; maxmemory?: string } = {}): Promise<RunningRedis> {
  if (!existsSync(REDIS_SERVER))
    throw new Error(`redis-server is not installed (${REDIS_SERVER}). Install it with: bash scripts/ensure-services.sh (apt-get install redis-server).`);
  const dir = mkdtempSync(join(tmpdir(), 'loansites-redis-'));
  const port = opts.port ?? (await freePort());
  // a redis-server already there would answer the pings below for one that failed to bind
  if (!(await isPortFree(port)))
    throw new Error(`port ${port} is taken by another process: give this Redis a port of its own (tests/support/ports.ts freePort)`);
  const args = [
    join(process.cwd(), 'deploy/redis.conf'),
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--daemonize',
    'no',
    '--logfile',
    join(dir, 'redis.log'),
  ];
  if (opts.maxmemory) args.push('--maxmemory', opts.maxmemory);
  const child: ChildProcess = spawn(REDIS_SERVER, args, { stdio: 'ignore' });
  let exited = false;
  child.on('exit', () => (exited = true));
  for (let i = 0; !(await ping(port)); i++) {
    if (exited || i > 100) throw new Error(`redis-server did not start on ${port} (log: ${join(dir, 'redis.log')})`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
