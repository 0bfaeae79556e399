/**
 * npm run bench:deploy (also the last part of npm run bench) — several instances, measured on
 * this machine with real servers (Redis with deploy/redis.conf, Debian's nginx with the shipped
 * deploy/nginx.conf, `node server.mjs` on the production build; npm run build first):
 *  1. what a cache hit costs one instance: embedded page cache (no REDIS_URL) vs Redis without
 *     a local copy (PAGE_CACHE_LOCAL_COPY=off) vs Redis with a local copy kept by keyspace
 *     notifications (keyspace) — req/s and median latency of a cached page, the static file
 *     beside it on the same instance;
 *  2. a cached page through nginx (its microcache) vs a static file nginx serves from disk, and
 *     the same static file proxied to the app;
 *  3. cold renders (pages never rendered, fresh Redis): pages/s of two instances vs one, both
 *     through nginx;
 *  4. what the page cache keeps per page besides the page (scripts/bench-page-cache-memory.ts).
 * Ports 3470–3499.
 */
import './check-node.cjs';
import autocannon from 'autocannon';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInstance, type Instance } from '../tests/support/instances';
import { startNginx } from '../tests/support/nginx';
import { freePort } from '../tests/support/ports';
import { startRedis, type RunningRedis } from '../tests/support/redis';
import { benchPageCacheMemory } from './bench-page-cache-memory';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const COLD_PAGES = Number(process.env.BENCH_COLD_PAGES ?? 300);
const HOST = 'ipaydayloans.localhost';
const PAGE = '/payday-loans';
const STATIC = '/static/ping.txt';
const root = process.cwd();

interface Load {
  rps: number;
  p50: number;
}

async function load(url: string, path: string, opts: { seconds?: number; connections?: number } = {}): Promise<Load> {
  const r = await autocannon({ url: url + path, headers: { host: HOST }, connections: opts.connections ?? 20, duration: opts.seconds ?? SECONDS });
  // A connection the server closes (keepalive_requests) can count as one error; more is a failure.
  if (r.non2xx || r.errors > r.requests.total / 1000) throw new Error(`${url}${path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50 };
}

const baseEnv = (db: string): Record<string, string> => ({ LOANSITES_DB_FILE: join(root, `.bench/${db}.sqlite`), DATABASE_URL: '', LEADS_WORKER: 'off' });

async function warm(url: string, path = PAGE) {
  for (let i = 0; i < 3; i++) await autocannon({ url: url + path, headers: { host: HOST }, connections: 1, amount: 5 });
}

/** Cities of a few states, as /location/{state}/{city}: pages nobody has rendered yet. */
function coldPaths(n: number, offset: number): string[] {
  const { states } = JSON.parse(readFileSync(join(root, 'data/generated/cities.json'), 'utf8')) as { states: Record<string, [string, string][]> };
  const all = Object.entries(states).flatMap(([st, cities]) => cities.map((c) => `/location/${st}/${c[1]}`));
  return all.slice(offset, offset + n);
}

async function coldRun(url: string, paths: string[]): Promise<number> {
  let i = 0;
  const started = Date.now();
  const r = await autocannon({
    url,
    connections: 8,
    amount: paths.length,
    timeout: 60,
    requests: [{ method: 'GET', headers: { host: HOST }, setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
  });
  if (r.errors || r.timeouts || r.non2xx) throw new Error(`cold run: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
  return (r['2xx'] + r.non2xx) / ((Date.now() - started) / 1000);
}

export async function benchDeploy(): Promise<void> {
  const load0 = loadavg();
  const lines: string[] = [];
  let redis: RunningRedis | undefined;
  const running: Instance[] = [];
  const stopAll = async () => {
    await Promise.allSettled(running.splice(0).map((i) => i.stop()));
  };
  try {
    // 1. A cache hit on one instance, three ways.
    redis = await startRedis({ port: await freePort(3470) });
    const port = await freePort(3475);
    const hit: Record<string, { page: Load; file: Load }> = {};
    for (const [name, env] of [
      ['embedded (no REDIS_URL)', {}],
      ['Redis, no local copy (off)', { REDIS_URL: redis.url, PAGE_CACHE_LOCAL_COPY: 'off' }],
      ['Redis + keyspace copy (keyspace)', { REDIS_URL: redis.url, PAGE_CACHE_LOCAL_COPY: 'keyspace' }],
    ] as const) {
      const inst = await startInstance(port, { ...baseEnv('deploy-hit'), ...env });
      running.push(inst);
      await warm(inst.url);
      await load(inst.url, PAGE, { seconds: 2 });
      hit[name] = { page: await load(inst.url, PAGE), file: await load(inst.url, STATIC) };
      await stopAll();
    }
    // 1b. The handler alone, in this process: the cost of one get() of this page's entry.
    lines.push(...(await handlerCost(redis.url)));
    lines.push(`\n== A cache hit on one instance (autocannon, 20 connections, ${SECONDS}s, ${PAGE})`);
    for (const [name, { page, file }] of Object.entries(hit))
      lines.push(
        `${name.padEnd(34)} page ${page.rps.toFixed(0).padStart(6)} req/s (p50 ${page.p50} ms) · static file ${file.rps.toFixed(0)} req/s · page/static ${(page.rps / file.rps).toFixed(2)}`,
      );

    // 2. Through nginx: microcached page vs a static file.
    const [pa, pb, pn, ps] = [await freePort(3480), await freePort(3482), await freePort(3485), await freePort(3487)];
    const env = { ...baseEnv('deploy-nginx'), REDIS_URL: redis.url, TRUST_FORWARDED_HOST: '1' };
    running.push(await startInstance(pa, env), await startInstance(pb, env));
    // Static files nginx serves from its own disk: the tiny ping file, and the page's own HTML
    // as a file (same bytes as the cached page, so the ratio compares like with like).
    const staticDir = mkdtempSync(join(tmpdir(), 'loansites-bench-static-'));
    copyFileSync(join(root, 'public', STATIC), join(staticDir, 'ping.txt'));
    const staticServer = `  server { listen 127.0.0.1:${ps}; root ${staticDir}; access_log off; keepalive_requests 1000000; }`;
    const nginx = await startNginx({ port: pn, upstreams: [pa, pb], extraHttp: staticServer });
    try {
      await warm(nginx.url);
      const html = await (await autocannonBody(nginx.url + PAGE)).text();
      writeFileSync(join(staticDir, 'page.html'), html);
      const viaNginx = await load(nginx.url, PAGE);
      const sameBytes = await load(`http://127.0.0.1:${ps}`, '/page.html');
      const tiny = await load(`http://127.0.0.1:${ps}`, '/ping.txt');
      const proxied = await load(nginx.url, STATIC);
      lines.push(`\n== Through nginx (shipped deploy/nginx.conf, two instances behind it; no gzip asked)`);
      lines.push(`cached page ${PAGE} (microcache, ${(html.length / 1024).toFixed(0)} KiB): ${viaNginx.rps.toFixed(0)} req/s (p50 ${viaNginx.p50} ms)`);
      lines.push(`the same bytes as a static file from nginx's disk: ${sameBytes.rps.toFixed(0)} req/s (p50 ${sameBytes.p50} ms)`);
      lines.push(`a tiny static file from nginx's disk (${STATIC}): ${tiny.rps.toFixed(0)} req/s`);
      lines.push(`${STATIC} proxied to the app (not microcached: no s-maxage): ${proxied.rps.toFixed(0)} req/s`);
      lines.push(
        `ratio cached page / static file of the same size: ${(viaNginx.rps / sameBytes.rps).toFixed(2)} · / tiny static file: ${(viaNginx.rps / tiny.rps).toFixed(2)}`,
      );
      rmSync(staticDir, { recursive: true, force: true });

      // 3. Cold renders: one instance (both upstreams point at it), then two. Each instance has
      // rendered a few city pages first, so neither run pays for first-use loading.
      for (const [k, inst] of running.entries()) await coldRun(inst.url, coldPaths(10, 10_000 + k * 10));
      await nginx.stop();
      const one = await startNginx({ port: pn, upstreams: [pa, pa] });
      const onePages = await coldRun(one.url, coldPaths(COLD_PAGES, 0));
      await one.stop();
      const two = await startNginx({ port: pn, upstreams: [pa, pb] });
      const twoPages = await coldRun(two.url, coldPaths(COLD_PAGES, COLD_PAGES));
      await two.stop();
      lines.push(`\n== Cold renders (${COLD_PAGES} city pages never rendered, 8 connections, through nginx)`);
      lines.push(`one instance:  ${onePages.toFixed(1)} pages/s`);
      lines.push(`two instances: ${twoPages.toFixed(1)} pages/s — ${(twoPages / onePages).toFixed(2)}× (both on this machine's cores)`);
    } finally {
      await nginx.stop().catch(() => undefined);
    }
  } finally {
    await stopAll();
    await redis?.stop();
  }
  lines.push('', ...(await benchPageCacheMemory(10_000)));
  lines.push(
    `\n(load average during the run: ${load0.map((n) => n.toFixed(1)).join(' ')} at the start, ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} at the end, on a machine with these cores shared)`,
  );
  console.log(lines.join('\n'));
}

/** Median microseconds per get() of a 56 KB page entry: Redis GET + parse, vs the keyspace copy. */
async function handlerCost(redisUrl: string): Promise<string[]> {
  const { createPageCache } = (await import('../engine/cache/redisPageCache.mjs')) as {
    createPageCache: (o: object) => {
      get(k: string, c: object): Promise<unknown>;
      set(k: string, d: unknown, c: object): Promise<void>;
      localCopyActive: boolean;
    };
  };
  const html = '<p>' + 'x'.repeat(56 * 1024) + '</p>';
  const entry = {
    kind: 'PAGES',
    html,
    pageData: { pageProps: { model: { blocks: Array.from({ length: 200 }, (_, i) => ({ type: 'text', i })) } } },
    headers: undefined,
    status: 200,
  };
  const out = ['\n== One cache hit in the handler (in-process, 2000 reads of a 56 KiB page, median)'];
  for (const mode of ['off', 'keyspace']) {
    const cache = createPageCache({ redisUrl, keyPrefix: `bench-${mode}:`, localCopy: mode });
    if (mode === 'keyspace') for (let i = 0; i < 100 && !cache.localCopyActive; i++) await new Promise((r) => setTimeout(r, 20));
    await cache.set('/p', entry, { cacheControl: { revalidate: 3600, expire: 31536000 } });
    const times: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const t = process.hrtime.bigint();
      await cache.get('/p', { kind: 'PAGES' });
      times.push(Number(process.hrtime.bigint() - t) / 1000);
    }
    times.sort((x, y) => x - y);
    out.push(`${mode === 'off' ? 'Redis GET each time (off)' : 'keyspace copy (keyspace)'}: ${times[1000]!.toFixed(0)} µs (p90 ${times[1800]!.toFixed(0)} µs)`);
  }
  return out;
}

/** GET with our Host (Node's fetch replaces the Host header). */
async function autocannonBody(url: string): Promise<{ text(): Promise<string> }> {
  const { request } = await import('node:http');
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    request({ host: u.hostname, port: u.port, path: u.pathname, headers: { host: HOST } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ text: async () => body }));
    })
      .on('error', reject)
      .end();
  });
}

if (process.argv[1]?.endsWith('bench-deploy.ts')) {
  benchDeploy().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
