/**
 * npm run bench — measured side by side in one run, on this machine:
 *  1. requests/s of a cached (ISR) brand page vs a static file from public/, same server,
 *     same autocannon settings, rounds interleaved; prints both and the ratio page/static.
 *  2. gzip bytes of the JavaScript Chromium loads for a brand page without interactive
 *     blocks, for the heaviest brand page, and for Next's own minimal page (a one-line
 *     pages-router app built from the same next version), and the ratios.
 *  3. what visit tracking costs: the same page landed on with a source and a click id (the
 *     session-trace chunk loads after idle and posts once) against the page without.
 *  4. several instances (scripts/bench-deploy.ts, also alone as npm run bench:deploy): what a
 *     cache hit costs with the Redis page cache, with and without a local copy; a cached page
 *     through nginx vs a static file through nginx; pages/s of two instances vs one, cold.
 *  5. HTML bytes per page and the page data in it (scripts/bench/pageWeight.ts), and Lighthouse 12
 *     mobile performance of every page template of 3 brands plus the payday home with and without
 *     its tag manager (scripts/bench/lighthouse.ts; --no-lighthouse skips it).
 * Budgets: ratio ≥ 0.8; HTML ≤ 30 KB (payday home, /payday-loans); Lighthouse ≥ 95; first-load JS without widgets within 5% of Next's minimum; the
 * session-trace code only after idle, from a lazy chunk.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';
import { benchDeploy } from './bench-deploy';
import { benchLighthouse } from './bench/lighthouse';
import { benchPageWeight } from './bench/pageWeight';
import { fakeThirdParties, THIRD_PARTY_HOSTS } from '../tests/e2e/thirdParties';

const root = process.cwd();
const PORT = Number(process.env.BENCH_PORT ?? 3200);
const MIN_PORT = PORT + 1;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const BRAND = 'ipaydayloans';
const CACHED_PAGE = '/payday-loans';
const PLAIN_PAGE = process.env.BENCH_PLAIN_PAGE ?? '/privacy';
/** Candidates for the heaviest page: the ones with interactive blocks and the longest lists. */
const CANDIDATES = ['/', '/apply', '/location/ca', '/location/ca/los-angeles', '/payday-loans', '/cash-advance'];
const STATIC_FILE = '/static/ping.txt';

const run = (cmd: string, args: string[], cwd = root) => {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
};

async function startServer(cwd: string, port: number): Promise<ChildProcess> {
  // Our app runs behind server.mjs, as in production; the minimal app under plain next start.
  // The bench's session traces go to a store of its own, not data/loansites.sqlite.
  const [cmd, args] = existsSync(join(cwd, 'server.mjs')) ? ['node', ['server.mjs']] : ['npx', ['next', 'start', '-p', String(port)]];
  const env = { ...process.env, NODE_ENV: 'production' as const, PORT: String(port), LOANSITES_DB_FILE: join(root, '.bench/bench.sqlite'), DATABASE_URL: '', RATE_LIMIT_SESSION_TRACE: '100000' };
  const child = spawn(cmd, args, { cwd, stdio: 'ignore', env, detached: true });
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/`, { headers: { host: `${BRAND}.localhost` } });
      if (r.status > 0) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server on ${port} did not start`);
}

const stop = (child: ChildProcess) => {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    /* already gone */
  }
};

async function rps(path: string, host = `${BRAND}.localhost:${PORT}`, expectStatus = 200): Promise<number> {
  const result = await autocannon({ url: `http://127.0.0.1:${PORT}${path}`, headers: { host }, connections: 20, duration: SECONDS, pipelining: 1 });
  const wrong = expectStatus === 200 ? result.non2xx : result['2xx'];
  if (wrong || result.errors) throw new Error(`${path} (${host}): ${wrong} responses with an unexpected status, ${result.errors} errors`);
  return result.requests.average;
}

/** With leave: after loading, the pointer leaves the page and the exit popup's code is counted too. */
async function firstLoadJs(url: string, opts: { leave?: boolean; traced?: boolean; thirdParties?: boolean } = {}): Promise<{ bytes: number; files: number }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const context = await browser.newContext();
  // The tag manager and the pixel answered by the tests' local look-alikes (never the real hosts);
  // only our own scripts are counted: the vendors' own bytes are theirs, whatever they weigh.
  const vendor = opts.thirdParties ? await fakeThirdParties(context as never) : undefined;
  const page = await context.newPage();
  const bodies: Promise<number>[] = [];
  page.on('response', (res) => {
    if (THIRD_PARTY_HOSTS.test(res.url())) return;
    if (res.request().resourceType() === 'script' || res.url().endsWith('.js')) bodies.push(res.body().then((b) => gzipSync(b, { level: 9 }).length).catch(() => 0));
  });
  const traced = opts.traced ? page.waitForResponse((r) => r.url().endsWith('/api/trace/session') && r.request().method() === 'POST') : undefined;
  await page.goto(url, { waitUntil: 'networkidle' });
  if (vendor) {
    // Wait until what loads after the page is interactive has loaded: the container, and the pixel on general brands.
    for (let i = 0; i < 50 && !vendor.requests.some((r) => r.url().includes('/gtm.js')); i++) await page.waitForTimeout(100);
    await page.waitForLoadState('networkidle');
  }
  if (traced && (await traced).status() !== 201) throw new Error(`${url}: the session trace was not stored`);
  if (opts.leave) {
    await page.mouse.move(300, 300);
    await page.mouse.move(300, -10);
    await page.getByRole('dialog').waitFor();
    await page.waitForLoadState('networkidle');
  }
  await browser.close();
  const sizes = await Promise.all(bodies);
  return { bytes: sizes.reduce((a, b) => a + b, 0), files: sizes.length };
}

function buildMinimalApp(): string {
  const dir = join(root, '.bench/minimal');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'pages'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'next-minimal', private: true }));
  writeFileSync(join(dir, 'pages/index.js'), 'export default function Home() { return <p>Hello</p>; }\n');
  writeFileSync(join(dir, 'next.config.mjs'), `export default { turbopack: { root: ${JSON.stringify(root)} } };\n`);
  run('npx', ['next', 'build'], dir);
  return dir;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

async function main() {
  if (!process.argv.includes('--no-build')) run('npm', ['run', 'build']);
  const minimalDir = buildMinimalApp();

  const server = await startServer(root, PORT);
  const minimal = await startServer(minimalDir, MIN_PORT);
  try {
    for (let i = 0; i < 3; i++) await fetch(`http://127.0.0.1:${PORT}${CACHED_PAGE}`, { headers: { host: `${BRAND}.localhost` } });
    await rps(CACHED_PAGE); // warm-up round, not counted
    const page: number[] = [];
    const file: number[] = [];
    const proxyOnly: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      page.push(await rps(CACHED_PAGE));
      file.push(await rps(STATIC_FILE));
      // Same server, a response the proxy writes itself (unknown host → 404): the cost of invoking proxy.ts alone.
      proxyOnly.push(await rps('/', 'nobrand.localhost', 404));
    }
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const [p, f, po] = [avg(page), avg(file), avg(proxyOnly)];

    const plain = await firstLoadJs(`http://${BRAND}.localhost:${PORT}${PLAIN_PAGE}`);
    const measured: { path: string; bytes: number; files: number }[] = [];
    for (const path of CANDIDATES) measured.push({ path, ...(await firstLoadJs(`http://${BRAND}.localhost:${PORT}${path}`)) });
    measured.push({ path: '/ + exit popup opened', ...(await firstLoadJs(`http://${BRAND}.localhost:${PORT}/`, { leave: true })) });
    const tracked = await firstLoadJs(`http://${BRAND}.localhost:${PORT}${PLAIN_PAGE}?source1=bench&gclid=bench-${Date.now()}`, { traced: true });
    const heavy = measured.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    // A general brand (tag manager + pixel) with every third party on, against the same page with them intercepted away.
    const GENERAL = 'cocoloan';
    const generalPlain = await firstLoadJs(`http://${GENERAL}.localhost:${PORT}${PLAIN_PAGE}`);
    const generalAll = await firstLoadJs(`http://${GENERAL}.localhost:${PORT}${PLAIN_PAGE}`, { thirdParties: true });
    const min = await firstLoadJs(`http://127.0.0.1:${MIN_PORT}/`);

    console.log('\n== Throughput (autocannon, 20 connections, %ds x %d rounds, same server)', SECONDS, ROUNDS);
    console.log(`cached brand page ${CACHED_PAGE}: ${p.toFixed(0)} req/s`);
    console.log(`static file ${STATIC_FILE}:       ${f.toFixed(0)} req/s`);
    console.log(`proxy-only response (unknown host): ${po.toFixed(0)} req/s — ratio ${(po / f).toFixed(2)} of static: the ceiling for any page behind proxy.ts`);
    console.log(`ratio page/static: ${(p / f).toFixed(2)} (budget ≥ 0.80)`);
    console.log('\n== First-load JavaScript (gzip -9 of every script Chromium loads)');
    console.log(`Next minimal page:                 ${kb(min.bytes)} in ${min.files} files`);
    console.log(`brand page, no widgets ${PLAIN_PAGE}: ${kb(plain.bytes)} in ${plain.files} files — ${((plain.bytes / min.bytes - 1) * 100).toFixed(1)}% over minimal (budget ≤ 5%)`);
    for (const m of measured) console.log(`brand page ${m.path}: ${kb(m.bytes)} in ${m.files} files`);
    console.log(`heaviest page ${heavy.path}: ${kb(heavy.bytes)} — ${((heavy.bytes / min.bytes - 1) * 100).toFixed(1)}% over minimal`);
    console.log('\n== Third parties (tag manager, pixel, error reporter, privacy choice)');
    console.log(`${GENERAL}${PLAIN_PAGE} (general brand: tag manager + pixel), vendors unreachable: ${kb(generalPlain.bytes)} of our JS in ${generalPlain.files} files, vs ${BRAND}${PLAIN_PAGE} (tag manager only) ${kb(plain.bytes)} in ${plain.files}: the pixel loader chunk, fetched after the page is interactive`);
    console.log(`${GENERAL}${PLAIN_PAGE}, tag manager and pixel answering (local look-alikes): ${kb(generalAll.bytes)} of our JS in ${generalAll.files} files; the vendors' own scripts are not counted. The inline error reporter is in every page's HTML (~0.6 KiB gzip).`);
    console.log('\n== Visit tracking');
    console.log(`${PLAIN_PAGE}?source1=…&gclid=… (session trace posted): ${kb(tracked.bytes)} in ${tracked.files} files — +${kb(tracked.bytes - plain.bytes)} in ${tracked.files - plain.files} lazy chunk(s), loaded after idle and only while a trace is due`);
    console.log(`every page: the visit-source code (stores source, path, click ids, LoansSource1) is part of ${PLAIN_PAGE}'s ${kb(plain.bytes)} above`);
    // Page weight and Lighthouse (scripts/bench/): HTML bytes, then mobile performance of every template of 3 brands.
    await benchPageWeight(PORT);
    if (!process.argv.includes('--no-lighthouse')) await benchLighthouse((brand) => `http://${brand}.localhost:${PORT}`, `http://${BRAND}.localhost:${PORT}/`);
  } finally {
    stop(server);
    stop(minimal);
  }
  // 4. Several instances: cache-hit cost with Redis, nginx's microcache vs a static file, cold renders 2 vs 1.
  if (!process.argv.includes('--no-deploy')) await benchDeploy();
}

// process.exit: the Redis clients of the several-instances part keep the event loop alive.
main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
