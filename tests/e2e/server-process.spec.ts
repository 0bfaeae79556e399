/**
 * The server process on a machine it shares. A port someone else has: a production server that
 * cannot listen stops with the reason and a failing status (a supervisor restarts it or reports
 * it), and a spec's own instance (tests/support/instances.ts) is never taken for the server that
 * holds its port — specs run side by side, and a spec whose browser talked to another spec's
 * server failed a minute later on sales that never came. A log reader that goes away: the server
 * keeps serving and still stops on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { pageAnswer } from '../support/comparedInstances';
import { startInstance } from '../support/instances';
import { freePort } from '../support/ports';
import { PORT } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'loansites-taken-port-'));
const env = { LOANSITES_DB_FILE: join(dir, 'store.sqlite'), DATABASE_URL: '', REDIS_URL: '', LEAD_DESTINATIONS: '' };
let other: Server | undefined;

test.afterAll(async () => {
  await new Promise((r) => (other ? other.close(r) : r(undefined)));
  rmSync(dir, { recursive: true, force: true });
});

/** Another server on `port` that answers every request 200, as a server of ours would its readiness check. */
function otherServerOn(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const srv = createServer((_req, res) => res.end('ok'));
    srv.once('error', () => resolve(undefined));
    srv.listen(port, '127.0.0.1', () => resolve(srv));
  });
}

/** Whether a process of server.mjs for `port` has been started (its environment in /proc): the instance's own check of the port is behind it. */
function serverProcessFor(port: number): boolean {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (
        readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server.mjs') &&
        readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`PORT=${port}`)
      )
        return true;
    } catch {
      /* gone, or not ours */
    }
  }
  return false;
}

test('a server whose port another process holds stops with the reason and exit status 1; a spec’s instance that lost its port while starting is reported, not mistaken for the other server', async () => {
  test.setTimeout(120_000);
  const port = await freePort(PORT + 20);
  other = await otherServerOn(port);
  const child = spawn(process.execPath, ['server.mjs'], {
    env: { ...process.env, NODE_ENV: 'production', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  expect(output).toContain(`[server] cannot listen on port ${port}: another process listens there`);
  expect(code).toBe(1);
  await new Promise((r) => other!.close(r));

  // The port free when the instance is asked for, taken by another server before ours listens
  // (ours renders a page first): the start fails with our server's own words.
  const second = await freePort(PORT + 20);
  const starting = startInstance(second, env).then(
    () => 'started',
    (err: Error) => err.message,
  );
  await expect.poll(() => serverProcessFor(second), { timeout: 30_000, intervals: [10] }).toBe(true);
  other = await otherServerOn(second);
  expect(other, 'the other server has the port before ours listens').toBeDefined();
  expect(await starting).toContain(`[server] cannot listen on port ${second}: another process listens there`);
});

test('a server whose log reader has gone keeps serving, and SIGTERM still stops it with exit status 0', async () => {
  test.setTimeout(120_000);
  const port = await freePort(PORT + 20);
  const child = spawn(process.execPath, ['server.mjs'], {
    env: { ...process.env, NODE_ENV: 'production', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let exitCode: number | null | undefined;
  child.on('exit', (code) => (exitCode = code));
  // the reader goes after the first line (a `| head -1`, a log collector that died): every later
  // line the server writes, from its start on, meets a closed pipe
  child.stdout.once('data', () => (child.stdout.destroy(), child.stderr.destroy()));
  try {
    await expect
      .poll(async () => (await pageAnswer(port, 'ipaydayloans.localhost', '/payday-loans').catch(() => undefined))?.status, { timeout: 60_000 })
      .toBe(200);
    process.kill(child.pid!, 'SIGTERM');
    await expect.poll(() => exitCode, { message: 'the server has stopped', timeout: 30_000 }).toBe(0);
  } finally {
    // a server spinning on its closed pipe ignores SIGTERM
    if (exitCode === undefined) process.kill(-child.pid!, 'SIGKILL');
  }
});
