/**
 * The shipped nginx (deploy/nginx.conf) in front of two stand-in instances while the shared store
 * is away: each answers the requests that need it 503 with Retry-After (as engine/http/api.ts
 * does) and keeps serving pages. Both instances share the store, so a 503 says nothing about the
 * instance: nginx passes it on as the app wrote it, and never takes the instances out of the
 * upstream for it — the pages stay served.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNginx, type RunningNginx } from '../support/nginx';
import { freePort } from '../support/ports';

const STORE_UNAVAILABLE = 'The service is briefly unavailable; please try again in a moment';
const apps: Server[] = [];
let nginx: RunningNginx;

beforeAll(async () => {
  const ports: number[] = [];
  for (const name of ['a', 'b']) {
    const port = await freePort();
    const app = createServer((req, res) => {
      if (req.url?.startsWith('/api/')) {
        res.writeHead(503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Retry-After': '5' });
        res.end(JSON.stringify({ error: STORE_UNAVAILABLE }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html', 'Cache-Control': 'no-store' });
      res.end(`a page from ${name}`);
    });
    await new Promise<void>((r) => app.listen(port, '127.0.0.1', r));
    apps.push(app);
    ports.push(port);
  }
  nginx = await startNginx({ port: await freePort(), upstreams: [ports[0]!, ports[1]!] });
}, 30_000);
afterAll(async () => {
  await nginx?.stop();
  for (const app of apps) await new Promise((r) => app.close(r));
});

const get = (path: string) => fetch(`${nginx.url}${path}`, { headers: { host: 'ipaydayloans.com' } });

it("with the store away, the app's 503s reach the visitor as written and the pages keep being served", async () => {
  for (let round = 0; round < 3; round++) {
    // a borrower's page polling the sale's status, as it does while a lead is sold
    const status = await get('/api/sale-status?token=t');
    expect(status.status).toBe(503);
    expect(status.headers.get('retry-after')).toBe('5');
    expect(await status.json()).toEqual({ error: STORE_UNAVAILABLE });
    for (const path of ['/', '/payday-loans']) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      expect(await page.text()).toMatch(/^a page from [ab]$/);
    }
  }
});
