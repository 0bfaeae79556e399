/**
 * The shipped nginx (deploy/nginx.conf) in front of a stand-in app whose page comes under an
 * experiment while nginx holds it: once the microcache's copy has expired, every visitor is
 * answered by the app (their own variant and their own cookie), not by the copy from before.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNginx, type RunningNginx } from '../support/nginx';
import { freePort } from '../support/ports';

let app: Server;
let nginx: RunningNginx;
let underExperiment = false;
let assigned = 0;

beforeAll(async () => {
  const appPort = await freePort();
  app = createServer((_req, res) => {
    // As an ISR page answers: shared caches may keep it; under an experiment it says so, and is private.
    const headers: Record<string, string> = { 'Content-Type': 'text/html', 'Cache-Control': 's-maxage=60, stale-while-revalidate=31535940' };
    if (!underExperiment) {
      res.writeHead(200, { ...headers, ETag: '"before"' });
      res.end('the page before the experiment');
      return;
    }
    const visitor = ++assigned;
    res.writeHead(200, {
      ...headers,
      'Cache-Control': 'private, no-cache',
      ETag: `"v${visitor}"`,
      'X-Loansites-Experiment': 'hero=b',
      'Set-Cookie': `ls_exp=hero.b.${visitor}; Path=/`,
    });
    // a render takes a moment: visitors arriving meanwhile must not get the old copy either
    setTimeout(() => res.end(`variant b for visitor ${visitor}`), 20);
  });
  await new Promise<void>((r) => app.listen(appPort, '127.0.0.1', r));
  nginx = await startNginx({ port: await freePort(), upstreams: [appPort, appPort] });
}, 30_000);
afterAll(async () => {
  await nginx?.stop();
  await new Promise((r) => app?.close(r));
});

const visit = async () => {
  const r = await fetch(`${nginx.url}/`, { headers: { host: 'ipaydayloans.com' } });
  return { body: await r.text(), cookie: r.headers.get('set-cookie') };
};

it('a page that comes under an experiment stops being served from the microcache once its copy expires', async () => {
  expect((await visit()).body).toBe('the page before the experiment');
  expect((await visit()).body).toBe('the page before the experiment'); // the microcache's copy
  underExperiment = true;
  // within the copy's 2 s (and a little), visitors reach the app
  await expect.poll(async () => (await visit()).body, { timeout: 4000, interval: 100 }).toMatch(/^variant b/);
  for (let round = 0; round < 5; round++) {
    const burst = await Promise.all(Array.from({ length: 8 }, visit));
    expect(burst.map((v) => v.body.replace(/\d+$/, 'N'))).toEqual(Array(8).fill('variant b for visitor N'));
    // each visitor their own assignment: no cookie served twice
    const cookies = burst.map((v) => v.cookie);
    expect(new Set(cookies).size).toBe(8);
  }
}, 15_000);
