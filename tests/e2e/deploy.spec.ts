/**
 * Several instances, run for real: two production instances (`node server.mjs` on
 * the build) sharing one Redis (deploy/redis.conf) and one PostgreSQL, behind Debian's nginx
 * running the shipped deploy/nginx.conf — the compose topology without Docker. Instance A keeps
 * no local page copy (PAGE_CACHE_LOCAL_COPY=off, the default); instance B keeps one invalidated
 * through Redis keyspace notifications (keyspace), so both ways are held to the same promises.
 * Content comes from a Strapi-shaped GraphQL server whose text the test changes.
 * Ports 3420–3499. Requests only; no browser.
 */
import { expect, test } from '@playwright/test';
import autocannon from 'autocannon';
import { request } from 'node:http';
import { join } from 'node:path';
import pg from 'pg';
import { CURRENT_CONSENT_VERSION } from '../../engine/site/consent';
import { loadContent } from '../../engine/content/embedded';
import { startBuyer, type Buyer } from '../support/buyer';
import { createClient } from 'redis';
import { startInstance, type Instance } from '../support/instances';
import { startNginx, type RunningNginx } from '../support/nginx';
import { freePort } from '../support/ports';
import { startPostgres, type RunningPostgres } from '../support/postgres';
import { startRedis, type RunningRedis } from '../support/redis';
import { startStrapiServer, type RunningServer } from '../support/strapi-server';

test.describe.configure({ mode: 'serial' });

const HOST = 'ipaydayloans.localhost';
const BUYER_SECRET = 'deploy-test-buyer-secret';
const REVALIDATE_SECRET = 'deploy-test-revalidate';
const TOKEN = 'deploy-test-token';
const ARTICLE = '/blog/payday-loans/fixture-article-2';
const CITY = '/location/tx/austin';
const TRACE_LIMIT = 6;

let redis: RunningRedis;
let postgres: RunningPostgres;
let db: pg.Pool;
let buyer: Buyer;
let cms: RunningServer;
let content: ReturnType<typeof loadContent>;
let a: Instance;
let b: Instance;
let nginx: RunningNginx;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
/** An HTTP request with the Host header we choose (Node's fetch replaces it). */
function send(base: string, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: opts.method ?? 'GET', headers: { host: HOST, ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
const get = (base: string, path: string, headers: Record<string, string> = {}) => send(base, path, { headers });
const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  send(base, path, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
const h1 = (res: Answer) => /<h1[^>]*>([^<]*)<\/h1>/.exec(res.body)?.[1];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  [redis, postgres] = await Promise.all([startRedis({ port: await freePort(3440) }), startPostgres()]);
  const databaseUrl = await postgres.createDatabase('deploy_test');
  db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  buyer = await startBuyer(BUYER_SECRET, await freePort(3450));
  content = loadContent(join(process.cwd(), 'tests/fixtures/content'));
  cms = await startStrapiServer({ index: content, token: TOKEN, port: await freePort(3455) });
  const env = {
    REDIS_URL: redis.url,
    DATABASE_URL: databaseUrl,
    TRUST_FORWARDED_HOST: '1',
    LOANSITES_DEPLOYMENT: 'production',
    LEADS_ENCRYPTION_KEY: 'c'.repeat(64),
    // the test's host (*.localhost) makes these test leads: the buyer takes them
    LEAD_DESTINATIONS: JSON.stringify({ ipaydayloans: [{ name: 'buyer', url: `${buyer.url}/leads`, secret: BUYER_SECRET, acceptsTestLeads: true }] }),
    LEADS_WORKER_INTERVAL_MS: '300',
    REVALIDATE_SECRET,
    CONTENT_GRAPHQL_URL: cms.url,
    CONTENT_GRAPHQL_TOKEN: TOKEN,
    RATE_LIMIT_SESSION_TRACE: String(TRACE_LIMIT),
    // What is held here is one allowance shared through Redis; a CI machine short of CPU must not
    // turn a check into a local count (the fallback has its own test in shared-redis.test.ts).
    REDIS_RATE_TIMEOUT_MS: '2000',
    RATE_LIMIT_LEADS: '100',
    LOANSITES_EXTRA_BRANDS_DIR: '',
  };
  const [portA, portB, portN] = [await freePort(3421), await freePort(3431), await freePort(3420)];
  // One after the other: both run migrations on start, and the lock-free path is not what is tested here.
  a = await startInstance(portA, { ...env, PAGE_CACHE_LOCAL_COPY: 'off' });
  b = await startInstance(portB, { ...env, PAGE_CACHE_LOCAL_COPY: 'keyspace' });
  nginx = await startNginx({ port: portN, upstreams: [portA, portB] });
});

test.afterAll(async () => {
  await Promise.allSettled([a?.stop(), b?.stop(), nginx?.stop()]);
  await db?.end();
  await Promise.allSettled([redis?.stop(), postgres?.stop(), buyer?.close(), cms?.close()]);
});

test('a page rendered through instance A is a cache hit on instance B: no second render', async () => {
  const first = await get(a.url, CITY);
  expect(first.status).toBe(200);
  expect(first.headers['x-nextjs-cache']).toBe('MISS');
  const html = first.body;
  // Next may store the page after the answer has gone out: B is asked once A's entry is in Redis.
  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    await expect.poll(async () => (await client.keys('*location/tx/austin*')).length, { timeout: 10_000 }).toBeGreaterThan(0);
  } finally {
    await client.quit();
  }
  const onB = await get(b.url, CITY);
  expect(onB.headers['x-nextjs-cache']).toBe('HIT');
  // The entry's lifetime came with it: B sends the same Cache-Control and does not take it for stale.
  expect(onB.headers['cache-control']).toBe(first.headers['cache-control']);
  expect(onB.body).toBe(html);
  const again = await get(b.url, CITY);
  expect(again.headers['x-nextjs-cache']).toBe('HIT');
  // Each instance opened its page cache the way it was told (on its first cached page).
  expect(a.log()).toContain('local copy off');
  expect(b.log()).toContain('local copy keyspace');
});

test('through nginx: gzip, the microcache, internal headers removed, forwarded host believed, limits', async () => {
  const page = await get(nginx.url, CITY, { 'accept-encoding': 'gzip' });
  expect(page.status).toBe(200);
  expect(page.headers['content-encoding']).toBe('gzip');
  for (const name of Object.keys(page.headers)) expect(name).not.toMatch(/^x-(nextjs|middleware)-|^x-powered-by$/);
  expect((await get(nginx.url, CITY)).body).toContain('Austin');
  // A request within the microcache's lifetime is answered from nginx's own copy.
  await expect.poll(async () => (await get(nginx.url, CITY)).headers['x-cache']).toBe('HIT');
  // The Host reaches the app as the visitor sent it: an unknown one gets the app's own answer.
  const unknown = await get(nginx.url, '/', { host: 'nobrand.example' });
  expect(unknown.status).toBe(404);
  expect(unknown.body).toContain('host nobrand.example not found');
  // TRACE refused; a body past the cap refused before the app.
  expect((await send(nginx.url, '/', { method: 'TRACE' })).status).toBe(405);
  expect((await post(nginx.url, '/api/leads', 'x'.repeat(40_000))).status).toBe(413);
});

test('POST /api/revalidate through A: B (and nginx) serve the new version, B without rendering it', async () => {
  expect(await h1(await get(a.url, ARTICLE))).toBe('Fixture article 2');
  const before = await get(b.url, ARTICLE);
  expect(before.headers['x-nextjs-cache']).toBe('HIT');
  expect(await h1(before)).toBe('Fixture article 2');
  expect(await h1(await get(nginx.url, ARTICLE))).toBe('Fixture article 2');

  const article = content.entries.get('article')!.find((e) => e.attributes.slug === 'fixture-article-2')!;
  article.attributes.h1 = 'Fixture article 2, revised';

  const res = await post(a.url, '/api/revalidate', { brand: 'ipaydayloans', paths: [ARTICLE] }, { 'x-revalidate-secret': REVALIDATE_SECRET });
  expect(res.status, res.body).toBe(200);
  await expect.poll(async () => h1(await get(b.url, ARTICLE))).toBe('Fixture article 2, revised');
  expect((await get(b.url, ARTICLE)).headers['x-nextjs-cache']).toBe('HIT');
  await expect.poll(async () => h1(await get(nginx.url, ARTICLE)), { timeout: 10_000 }).toBe('Fixture article 2, revised');
});

test('an article published later: once revalidated through A, B stops answering 404 too', async () => {
  const fresh = '/blog/payday-loans/fixture-article-late';
  expect((await get(b.url, fresh)).status).toBe(404); // B's proxy now remembers "no such article"
  const articles = content.entries.get('article')!;
  const late = structuredClone(articles.find((e) => e.attributes.slug === 'fixture-article-2')!);
  Object.assign(late, { id: 'late-1' });
  Object.assign(late.attributes, { slug: 'fixture-article-late', url: fresh, h1: 'A late article' });
  articles.push(late);
  const res = await post(a.url, '/api/revalidate', { brand: 'ipaydayloans', paths: [fresh] }, { 'x-revalidate-secret': REVALIDATE_SECRET });
  expect(res.status, res.body).toBe(200);
  await expect.poll(async () => h1(await get(b.url, fresh))).toBe('A late article');
});

test('the rate limit counts requests across both instances (in Redis)', async () => {
  const trace = (base: string, n: number, ip: string) =>
    post(
      base,
      '/api/trace/session',
      { source1: 'spring', source2: '/payday-loans', clickId: 'ggabc', uuid: `cc${n.toString(16).padStart(32, '0')}`, ggClientId: '11.22' },
      { 'x-forwarded-for': ip },
    );
  const statuses: number[] = [];
  for (let i = 0; i < TRACE_LIMIT + 4; i++) statuses.push((await trace(i % 2 ? b.url : a.url, 1000 + i, '203.0.113.9')).status);
  expect(statuses, `instance A said:\n${a.log()}\ninstance B said:\n${b.log()}`).toEqual([...Array(TRACE_LIMIT).fill(201), ...Array(4).fill(429)]);
  // Through nginx the client is nginx's peer, whatever X-Forwarded-For the client sends.
  const spoofed: number[] = [];
  for (let i = 0; i < TRACE_LIMIT + 1; i++) spoofed.push((await trace(nginx.url, 2000 + i, `198.51.100.${i + 1}`)).status);
  expect(spoofed).toEqual([...Array(TRACE_LIMIT).fill(201), 429]);
});

test('20 leads posted alternately to A and B: 20 rows, each delivered exactly once', async () => {
  const stamp = Date.now();
  for (let i = 0; i < 20; i++) {
    const res = await post(
      i % 2 ? b.url : a.url,
      '/api/leads',
      {
        idempotencyKey: `deploy-${stamp}-${i}-abcdefghijkl`,
        amount: 2500,
        zip: '78701',
        firstName: 'Ana',
        lastName: 'García',
        email: `ana${i}@example.org`,
        phone: '5125550123',
        incomeSource: 'employment',
        monthlyIncome: 3200,
        payFrequency: 'biweekly',
        dateOfBirth: '1990-04-02',
        consent: { accepted: true, version: CURRENT_CONSENT_VERSION },
        tracking: { source: 'spring', source2: '/payday-loans', clickId: 'ggabc', uuid: 'cc' + 'b'.repeat(32) },
      },
      { 'x-forwarded-for': `192.0.2.${i + 1}` },
    );
    expect(res.status, res.body).toBeLessThan(300);
  }
  const rows = async () => (await db.query<{ n: string }>('SELECT count(*) AS n FROM leads')).rows[0]!.n;
  expect(await rows()).toBe('20');
  // Done when every outbox row is delivered: no worker can claim one again after that.
  await expect
    .poll(async () => (await db.query<{ status: string; n: string }>('SELECT status, count(*) AS n FROM lead_deliveries GROUP BY status')).rows, {
      timeout: 30_000,
    })
    .toEqual([{ status: 'delivered', n: '20' }]);
  expect(buyer.received).toHaveLength(20);
  expect(new Set(buyer.received.map((r) => r.id)).size).toBe(20);
  expect(buyer.attempts).toBe(20);
  // Both instances run sales (each its own and the other's, from the sweep): every lead's sale is
  // decided once, never by both.
  await expect
    .poll(async () => (await db.query<{ n: string }>("SELECT count(*) AS n FROM lead_sales WHERE status <> 'pending'")).rows[0]!.n, { timeout: 30_000 })
    .toBe('20');
  const decisions = await db.query<{ lead_id: string; n: string }>("SELECT lead_id, count(*) AS n FROM sale_events WHERE step = 'decision' GROUP BY lead_id");
  expect(decisions.rows).toHaveLength(20);
  expect(decisions.rows.filter((r) => r.n !== '1')).toEqual([]);
});

test('instance B killed mid-load: nginx loses no request', async () => {
  test.setTimeout(60_000);
  let responses = 0;
  let killed = false;
  let finish!: (r: autocannon.Result) => void;
  let fail!: (e: unknown) => void;
  const done = new Promise<autocannon.Result>((resolve, reject) => ((finish = resolve), (fail = reject)));
  const run = autocannon(
    {
      url: nginx.url,
      connections: 8,
      amount: 1200,
      timeout: 10,
      // A new query string each time: nginx's microcache misses, every request reaches an instance
      // (the instance answers from the shared page cache: getStaticProps pages ignore the query).
      requests: [{ method: 'GET', headers: { host: HOST }, setupRequest: (req) => ({ ...req, path: `${CITY}?r=${Math.random().toString(36).slice(2)}` }) }],
    },
    (err, result) => (err ? fail(err) : finish(result)),
  );
  run.on('response', () => {
    responses += 1;
    if (!killed && responses >= 300) {
      killed = true;
      b.kill();
    }
  });
  const result = await done;
  expect(killed).toBe(true);
  expect({ errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx }).toEqual({ errors: 0, timeouts: 0, non2xx: 0 });
  expect(result['2xx']).toBe(1200);
});
