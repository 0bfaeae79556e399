/**
 * POST /api/console/{action} (pages/api/console/[action].ts) on a plain node:http server over a
 * fresh SQLite file: each of the console's form posts reaches its own handler, any other action
 * is a 404 with a reason, and the route answers POST only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../support/traceServer';

const dir = mkdtempSync(join(tmpdir(), 'loansites-console-route-'));
let server: Server;
let port = 0;

beforeAll(async () => {
  Object.assign(process.env, { LOANSITES_DB_FILE: join(dir, 'console.sqlite'), DATABASE_URL: '' });
  const { default: handler } = await import('../../pages/api/console/[action]');
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  const { closeStore } = await import('../../engine/store/db');
  await closeStore();
  rmSync(dir, { recursive: true, force: true });
});

/** A console form post as the browser sends it from the console's own page (tests/support/traceServer.ts post). */
const send = (method: string, path: string, body = '', headers: Record<string, string> = {}) =>
  post(port, body, {
    method,
    path,
    host: 'console.localhost',
    type: 'application/x-www-form-urlencoded',
    headers: { 'sec-fetch-site': 'same-origin', ...headers },
  });

describe('the console form-post route', () => {
  it('hands a sign-in to the sign-in handler: a wrong password goes back to the sign-in page', async () => {
    const res = await send('POST', '/api/console/login', 'email=nobody%40example.com&password=wrong-password-1');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login?error=wrong');
  });

  it('hands a sign-in from another site to the sign-in handler, which refuses it', async () => {
    const res = await send('POST', '/api/console/login', 'email=a%40example.com&password=x', { 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login?error=refused');
  });

  it('hands an export without a session to the export, which refuses it with a reason', async () => {
    const res = await send('POST', '/api/console/export', 'csrf=x');
    expect(res.status).toBe(401);
    expect(typeof res.json.error).toBe('string');
  });

  it('answers an action the console does not have with 404 and a reason', async () => {
    const res = await send('POST', '/api/console/constructor', 'csrf=x');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'Not found' });
  });

  it('answers another method with 405 and Allow: POST', async () => {
    const res = await send('GET', '/api/console/login');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json).toEqual({ error: 'Use POST' });
  });
});
