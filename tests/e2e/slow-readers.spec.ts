/**
 * Clients that ask for a large answer and never read it (engine/http/slowClients.mjs): 100 of
 * them on a brand's second sitemap (~4 MB). The server's memory stays bounded, it closes their
 * connections within the send timeout (plus its once-a-second check), and a page asked for
 * meanwhile answers at once. Its own instance, so that its memory is its own.
 */
import { expect, test } from '@playwright/test';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInstance, type Instance } from '../support/instances';
import { slowReaderRun } from '../support/slowReaders';
import { PORT } from './helpers';

const OWN_PORT = Number(process.env.SLOW_READERS_PORT ?? PORT + 74);
const SEND_TIMEOUT_MS = 3000;
/** The brand with the most pages: past 50,000 URLs, so it has a /sitemaps/1.xml. */
const HOST = 'ipaydayloans.localhost';
const MB = 1024 * 1024;

let server: Instance;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startInstance(OWN_PORT, {
    SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS),
    RATE_LIMIT_SITEMAP: '1000',
    LOANSITES_DB_FILE: join(tmpdir(), `loansites-e2e-${OWN_PORT}.sqlite`),
    DATABASE_URL: '',
    REDIS_URL: '',
  });
});
test.afterAll(async () => {
  await server?.stop();
});

function get(path: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: OWN_PORT, path, agent: false, headers: { host: HOST } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout ${path}`)));
    req.on('error', reject);
    req.end();
  });
}

test('100 clients that never read a 4 MB sitemap: memory bounded, cut off within the send timeout, other pages fast', async () => {
  test.setTimeout(120_000);
  // Read once in full (the sitemap is built on its first request; that is not what is measured).
  const sitemap = await get('/sitemaps/1.xml');
  expect(sitemap.status).toBe(200);
  expect(sitemap.bytes).toBeGreaterThan(3 * MB);
  expect((await get('/about')).status).toBe(200);

  let about = 0;
  const run = await slowReaderRun({
    port: OWN_PORT,
    pid: server.pid,
    host: HOST,
    path: '/sitemaps/1.xml',
    count: 100,
    deadlineMs: 20_000,
    probe: async () => (about = (await get('/about')).status),
  });
  console.log(
    `slow readers: RSS ${Math.round(run.rssBefore / MB)} MB → peak ${Math.round(run.rssPeak / MB)} MB → ${Math.round(run.rssAfter / MB)} MB; all closed after ${run.closedAfterMs} ms; /about in ${run.probeMs} ms`,
  );
  expect(about).toBe(200);
  expect(run.probeMs).toBeLessThan(2000);
  expect(run.rssPeak - run.rssBefore).toBeLessThan(150 * MB);
  // Cut off once they have read nothing for SEND_TIMEOUT_MS, at the next check (every second).
  expect(run.closedAfterMs).toBeDefined();
  expect(run.closedAfterMs!).toBeLessThan(SEND_TIMEOUT_MS + 2000);
});
