/**
 * A production instance stopped by SIGTERM (a release, a scale-down): the borrower whose request
 * was on its way still gets an answer and their request is kept, no new connection is taken, and
 * the process closes its store (SQLite's write-ahead log folded into the file) before it exits 0.
 */
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { existsSync, rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInstance, type Instance } from '../support/instances';
import { PORT } from './helpers';

const OWN_PORT = PORT + 76;
const DB_FILE = join(tmpdir(), `loansites-e2e-shutdown-${OWN_PORT}.sqlite`);

let server: Instance | undefined;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  for (const f of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`]) rmSync(f, { force: true });
  server = await startInstance(OWN_PORT, { LOANSITES_DB_FILE: DB_FILE, DATABASE_URL: '', REDIS_URL: '', SHUTDOWN_GRACE_MS: '60000' });
});
test.afterAll(async () => {
  server?.kill();
  for (const f of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`]) rmSync(f, { force: true });
});

const refused = () =>
  new Promise<boolean>((resolve) => {
    const s = connect(OWN_PORT, '127.0.0.1');
    s.on('connect', () => (s.destroy(), resolve(false)));
    s.on('error', () => resolve(true));
  });

test('SIGTERM: the opt-out being sent is answered and kept, new connections are refused, the store is closed, exit 0', async () => {
  test.setTimeout(90_000);
  const instance = server!;
  const body = JSON.stringify({ phone: '(214) 555-0142' });
  const req = request({
    host: '127.0.0.1',
    port: OWN_PORT,
    method: 'POST',
    path: '/api/opt-out',
    // Expect: 100-continue: the server's "go on" is the sign it has taken the request in.
    headers: { host: 'ipaydayloans.localhost', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
    agent: false,
  });
  const answer = new Promise<{ res: IncomingMessage; text: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ res, text }));
    });
    req.on('error', reject);
  });
  const taken = new Promise<void>((resolve) => req.on('continue', resolve));
  req.flushHeaders();
  await taken;
  // Half of the body is sent: the request is in progress when the instance is told to stop.
  req.write(body.slice(0, 10));
  instance.terminate();
  await expect.poll(() => instance.log()).toContain('SIGTERM: answering the requests in progress');
  await expect.poll(refused).toBe(true);

  req.end(body.slice(10));
  const { res, text } = await answer;
  expect(res.statusCode, text).toBe(200);
  expect(JSON.parse(text)).toEqual({ status: 'recorded' });

  expect(await instance.exited).toBe(0);
  server = undefined;
  expect(instance.log()).toMatch(/\[server\] closed: .*store/);
  // The store was closed, not dropped: the write-ahead log is folded into the file and removed.
  expect(existsSync(`${DB_FILE}-wal`)).toBe(false);
  const db = new Database(DB_FILE, { readonly: true });
  try {
    expect((db.prepare('SELECT COUNT(*) AS n FROM suppressions').get() as { n: number }).n).toBeGreaterThan(0);
  } finally {
    db.close();
  }
});
