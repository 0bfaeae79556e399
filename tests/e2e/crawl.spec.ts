/**
 * Every brand, crawled breadth-first from / over same-host links (plain HTTP against the
 * production server, with the brand's local host), up to CRAWL_LIMIT pages or CRAWL_SECONDS:
 * no linked page may answer 4xx/5xx, and each has one <h1>, a non-empty <title> and a
 * canonical link. Also: robots.txt and the sitemap index of each brand, with sampled URLs.
 */
import { expect, test } from '@playwright/test';
import { request } from 'node:http';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { PORT } from './helpers';

const CRAWL_LIMIT = Number(process.env.CRAWL_LIMIT ?? 300);
const CRAWL_SECONDS = Number(process.env.CRAWL_SECONDS ?? 100);
const CONCURRENCY = 6;

const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts);

function get(host: string, path: string): Promise<{ status: number; body: string; location?: string }> {
  return new Promise((resolve, reject) => {
    // agent: false — a fresh connection per request: reusing an idle keep-alive socket races the server closing it (ECONNRESET)
    const req = request({ host: '127.0.0.1', port: PORT, path, agent: false, headers: { host: `${host}:${PORT}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, location: res.headers.location }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout ${path}`)));
    req.on('error', reject);
    req.end();
  });
}

const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"');

/** Same-host page links of an HTML page: paths only, query and fragment dropped. */
export function pageLinks(html: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)) {
    const href = decode(m[1]!);
    if (!href.startsWith('/') || href.startsWith('//')) continue;
    const path = href.replace(/[?#].*$/, '');
    if (path.startsWith('/_next/') || path.startsWith('/api/')) continue;
    out.add(path);
  }
  return [...out];
}

for (const [id, loaded] of catalog.brands) {
  test(`crawl ${id}: every linked page answers 200 with one <h1>, a title and a canonical`, async () => {
    test.setTimeout((CRAWL_SECONDS + 60) * 1000);
    const host = `${id}.localhost`;
    const queue: { path: string; from: string }[] = [{ path: '/', from: '(start)' }];
    const seen = new Set<string>(['/']);
    const problems: string[] = [];
    let visited = 0;
    const deadline = Date.now() + CRAWL_SECONDS * 1000;

    async function visit(item: { path: string; from: string }) {
      const res = await get(host, item.path);
      visited++;
      if (res.status !== 200) {
        problems.push(`${item.path} (linked from ${item.from}): status ${res.status}`);
        return;
      }
      const h1 = res.body.match(/<h1[\s>]/g)?.length ?? 0;
      if (h1 !== 1) problems.push(`${item.path}: ${h1} <h1> elements`);
      if (!/<title[^>]*>[^<]+<\/title>/.test(res.body)) problems.push(`${item.path}: empty or missing <title>`);
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(res.body)?.[1];
      if (!canonical?.startsWith('https://')) problems.push(`${item.path}: missing canonical`);
      for (const link of pageLinks(res.body)) {
        if (!seen.has(link)) {
          seen.add(link);
          queue.push({ path: link, from: item.path });
        }
      }
    }

    while (queue.length && visited < CRAWL_LIMIT && Date.now() < deadline) {
      const batch = queue.splice(0, Math.min(CONCURRENCY, CRAWL_LIMIT - visited));
      await Promise.all(batch.map(visit));
    }
    console.log(`crawl ${id}: ${visited} pages visited, ${seen.size} links seen, ${problems.length} problems`);
    expect(problems).toEqual([]);
    // Either the limit was reached or the whole brand was crawled.
    expect(visited === CRAWL_LIMIT || queue.length === 0 || Date.now() >= deadline).toBe(true);
    expect(visited).toBeGreaterThanOrEqual(Math.min(CRAWL_LIMIT, 10));
  });

  test(`${id}: robots.txt and sitemaps`, async () => {
    const host = `${id}.localhost`;
    const primary = `https://${loaded.brand.hosts[0]}`;
    const robots = await get(host, '/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.body).toContain(`Sitemap: ${primary}/sitemap.xml`);
    const index = await get(host, '/sitemap.xml');
    expect(index.status).toBe(200);
    const children = [...index.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(children.length).toBeGreaterThanOrEqual(1);
    for (const child of children) {
      const sitemap = await get(host, new URL(child).pathname);
      expect(sitemap.status).toBe(200);
      const urls = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
      expect(urls.length).toBeGreaterThan(0);
      expect(urls.length).toBeLessThanOrEqual(50_000);
      // Sample the first, the middle and the last URL: each is a real page.
      for (const url of [urls[0]!, urls[Math.floor(urls.length / 2)]!, urls[urls.length - 1]!]) {
        const u = new URL(url);
        expect(u.origin === primary || (loaded.brand.blogHost && u.host === loaded.brand.blogHost), url).toBeTruthy();
        const page = await get(host, u.pathname);
        expect(page.status, url).toBe(200);
      }
    }
    const past = await get(host, `/sitemaps/${children.length}.xml`);
    expect(past.status).toBe(404);
  });
}
