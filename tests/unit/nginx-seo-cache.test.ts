/**
 * The shipped nginx (deploy/nginx.conf) in front of a stand-in app: robots.txt and sitemaps are
 * cached by path, so a query string made up per request (`?n=1`, `?n=2`…) cannot make every
 * request reach the app; pages keep their query in the cache key.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNginx, type RunningNginx } from '../support/nginx';
import { freePort } from '../support/ports';

let app: Server;
let nginx: RunningNginx;
const seen: string[] = [];

beforeAll(async () => {
  const appPort = await freePort();
  app = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'application/xml', 'Cache-Control': 'public, max-age=3600, s-maxage=3600' });
    res.end('<urlset/>');
  });
  await new Promise<void>((r) => app.listen(appPort, '127.0.0.1', r));
  nginx = await startNginx({ port: await freePort(), upstreams: [appPort, appPort] });
}, 30_000);
afterAll(async () => {
  await nginx?.stop();
  await new Promise((r) => app?.close(r));
});

const get = (path: string) => fetch(`${nginx.url}${path}`, { headers: { host: 'ipaydayloans.com' } });

describe('nginx microcache and SEO files', () => {
  it('sitemaps and robots.txt with made-up query strings reach the app once per path', async () => {
    seen.length = 0;
    for (let n = 0; n < 5; n++) {
      for (const path of ['/sitemaps/1.xml', '/sitemap.xml', '/robots.txt']) expect((await get(`${path}?n=${n}`)).status).toBe(200);
    }
    expect(seen.filter((u) => u.startsWith('/sitemaps/1.xml'))).toHaveLength(1);
    expect(seen.filter((u) => u.startsWith('/sitemap.xml'))).toHaveLength(1);
    expect(seen.filter((u) => u.startsWith('/robots.txt'))).toHaveLength(1);
  });

  it('pages are still cached by path and query', async () => {
    seen.length = 0;
    for (let n = 0; n < 3; n++) expect((await get(`/about?n=${n}`)).status).toBe(200);
    expect(seen).toEqual(['/about?n=0', '/about?n=1', '/about?n=2']);
  });
});
