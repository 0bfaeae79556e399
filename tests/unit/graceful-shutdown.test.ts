/**
 * What a stopping server does (engine/process/shutdown.mjs): the requests in progress are answered,
 * no new connection is taken, then the workers stop before the store and Redis connections close.
 * Against a real node:http server, a real SQLite file and a real redis-server.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainServer, onShutdown, runShutdown, shutdownGraceMs, shutdownOrder } from '../../engine/process/shutdown.mjs';
import { memoryRateLimiter } from '../../engine/http/rateLimit';
import { redisRateLimiter } from '../../engine/http/redisRateLimit';
import { getStore } from '../../engine/store/db';
import { startRedis, type RunningRedis } from '../support/redis';

const quiet = () => {};

describe('the order things close in', () => {
  it('background work finishes before any connection closes, whatever the order they registered in', async () => {
    const seen: string[] = [];
    let finishRound!: () => void;
    onShutdown('store', 'connections', () => void seen.push('store closed'));
    onShutdown('worker', 'work', () => new Promise<void>((r) => (finishRound = r)).then(() => void seen.push('worker stopped')));
    expect(shutdownOrder()).toEqual(['worker', 'store']);
    const done = runShutdown({ log: quiet });
    await expect.poll(() => typeof finishRound).toBe('function');
    // The worker is still in its round: the store must still be open.
    expect(seen).toEqual([]);
    finishRound();
    expect(await done).toEqual({ closed: ['worker', 'store'], failed: [] });
    expect(seen).toEqual(['worker stopped', 'store closed']);
  });

  it('a closer that throws or hangs is reported and the others still close; nothing closes twice', async () => {
    const lines: string[] = [];
    let closedRedis = 0;
    onShutdown('broken', 'connections', () => {
      throw new Error('socket already gone');
    });
    onShutdown('hung', 'connections', () => new Promise(() => {}));
    onShutdown('redis', 'connections', () => void closedRedis++);
    const result = await runShutdown({ timeoutMs: 200, log: (l) => lines.push(l) });
    expect(result.closed).toEqual(['redis']);
    expect(result.failed.sort()).toEqual(['broken', 'hung']);
    expect(lines.join('\n')).toContain('broken: socket already gone');
    expect(lines.join('\n')).toContain('hung: not closed within 200 ms');
    expect(await runShutdown({ log: quiet })).toEqual({ closed: [], failed: [] });
    expect(closedRedis).toBe(1);
  });

  it('a registration taken back, or replaced under the same name, is not closed', async () => {
    const seen: string[] = [];
    const undo = onShutdown('pruner', 'work', () => void seen.push('pruner'));
    undo();
    onShutdown('store', 'connections', () => void seen.push('first store'));
    onShutdown('store', 'connections', () => void seen.push('reopened store'));
    await runShutdown({ log: quiet });
    expect(seen).toEqual(['reopened store']);
  });

  it('SHUTDOWN_GRACE_MS: a number of milliseconds, 10 s when unset or unreadable', () => {
    expect(shutdownGraceMs({})).toBe(10_000);
    expect(shutdownGraceMs({ SHUTDOWN_GRACE_MS: '2500' })).toBe(2500);
    expect(shutdownGraceMs({ SHUTDOWN_GRACE_MS: 'soon' })).toBe(10_000);
    expect(shutdownGraceMs({ SHUTDOWN_GRACE_MS: '-1' })).toBe(10_000);
  });
});

/** A server that answers once the whole request body is in: a request in progress is one whose body is still coming. */
async function echoServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => res.end(`got ${body.length} bytes`));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => (s.destroy(), resolve(false)));
    s.on('error', () => resolve(true));
  });

function startPost(port: number, length: number) {
  const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-length': length }, agent: false });
  const answer = new Promise<{ res: IncomingMessage; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ res, body }));
    });
    req.on('error', reject);
  });
  return { req, answer };
}

describe('draining a server', () => {
  it('answers the request in progress, refuses new connections, and closes an idle kept-alive connection at once', async () => {
    const { server, port } = await echoServer();
    // An idle kept-alive connection: one request answered, the socket left open for more.
    const idle = connect(port, '127.0.0.1');
    let idleClosed = false;
    idle.on('close', () => (idleClosed = true));
    idle.on('data', () => {});
    idle.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    const inProgress = startPost(port, 10);
    inProgress.req.write('hello');
    await expect.poll(() => server.listening).toBe(true);
    // The server has both connections before it is asked to stop.
    await expect.poll(() => new Promise((r) => server.getConnections((_, n) => r(n)))).toBe(2);

    const drained = drainServer(server, 30_000);
    await expect.poll(() => idleClosed).toBe(true);
    await expect.poll(() => refused(port)).toBe(true);
    inProgress.req.end('world');
    const { res, body } = await inProgress.answer;
    expect(res.statusCode).toBe(200);
    expect(body).toBe('got 10 bytes');
    expect(await drained).toBe('drained');
  });

  it('cuts a request that is still open when the grace period ends', async () => {
    const { server, port } = await echoServer();
    const stalled = startPost(port, 10);
    stalled.req.write('hel');
    await expect.poll(() => new Promise((r) => server.getConnections((_, n) => r(n)))).toBe(1);
    expect(await drainServer(server, 300)).toBe('cut');
    await expect(stalled.answer).rejects.toThrow();
  });
});

describe('closing the store and Redis', () => {
  let redis: RunningRedis;
  let dir: string;
  beforeAll(async () => {
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'loansites-shutdown-'));
  }, 30_000);
  afterAll(async () => {
    await runShutdown({ log: quiet });
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('folds the SQLite write-ahead log into the file and drops the rate-limit connection to Redis', async () => {
    const file = join(dir, 'store.sqlite');
    process.env.LOANSITES_DB_FILE = file;
    try {
      await getStore();
    } finally {
      delete process.env.LOANSITES_DB_FILE;
    }
    // The migrations wrote through the write-ahead log.
    expect(existsSync(`${file}-wal`)).toBe(true);

    const limiter = redisRateLimiter(
      { name: 'shutdown-test', limit: 5, windowMs: 60_000 },
      { url: redis.url, fallback: memoryRateLimiter({ name: 'x', limit: 5, windowMs: 60_000 }) },
    );
    expect((await limiter.hit('203.0.113.7')).remaining).toBe(4);
    const watcher = createClient({ url: redis.url });
    await watcher.connect();
    const clients = async () => Number(/connected_clients:(\d+)/.exec(await watcher.info('clients'))?.[1]);
    expect(await clients()).toBe(2);

    expect(shutdownOrder()).toEqual(expect.arrayContaining(['store', 'rate-limit Redis']));
    const result = await runShutdown({ log: quiet });
    expect(result.failed).toEqual([]);
    expect(result.closed).toEqual(expect.arrayContaining(['store', 'rate-limit Redis']));
    expect(existsSync(`${file}-wal`)).toBe(false);
    await expect.poll(clients).toBe(1);
    await watcher.quit();
  });
});
