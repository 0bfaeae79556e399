/**
 * First-load JavaScript (gzip -9 of every script Chromium loads) of brand pages against Next's
 * own minimal page (a one-line pages-router app built with the same next version, served on
 * BENCH_PORT + 1); the heaviest page (exit popup opened); what the third parties and visit
 * tracking add.
 */
import { namedScripts } from '../../engine/browser/afterPaintScript.mjs';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium';
import { fakeThirdParties, THIRD_PARTY_HOSTS } from '../../tests/e2e/thirdParties';
import { startServer, stopServer, type BenchContext, type Row } from './context';
import { EVENTS_URL } from '../../engine/browser/visit';

const PLAIN_PAGE = process.env.BENCH_PLAIN_PAGE ?? '/privacy';
/** Candidates for the heaviest page: the ones with interactive blocks and the longest lists. */
const CANDIDATES = ['/', '/apply', '/location/ca', '/location/ca/los-angeles', '/payday-loans', '/cash-advance'];
const GENERAL = 'cocoloan';

const KiB = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/**
 * With leave: after loading, the pointer leaves the page and the exit popup's code is counted too.
 * With interact: after loading, the visitor scrolls and points at a link, and what that fetches
 * (the router calls, the sticky apply watcher, the link's page code and the static blocks' chunk)
 * is counted too.
 */
async function firstLoadJs(
  url: string,
  opts: { leave?: boolean; traced?: boolean; thirdParties?: boolean; interact?: boolean } = {},
): Promise<{ bytes: number; files: number; events: EventsCode }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
  });
  const context = await browser.newContext();
  // The tag manager and the pixel answered by the tests' local look-alikes (never the real hosts);
  // only our own scripts are counted: the vendors' own bytes are theirs, whatever they weigh.
  const vendor = opts.thirdParties ? await fakeThirdParties(context as never) : undefined;
  const page = await context.newPage();
  const bodies: Promise<{ path: string; gz: number }>[] = [];
  const eventsChunks: Promise<{ path: string; bytes: number; sender: boolean } | undefined>[] = [];
  page.on('response', (res) => {
    if (THIRD_PARTY_HOSTS.test(res.url())) return;
    if (res.request().resourceType() === 'script' || res.url().endsWith('.js')) {
      const body = res.body();
      const path = new URL(res.url()).pathname;
      bodies.push(body.then((b) => ({ path, gz: gzipSync(b, { level: 9 }).length })).catch(() => ({ path, gz: 0 })));
      eventsChunks.push(
        body.then(
          (b) =>
            // Code chunks only: the build manifest lists every route's path (the API routes' too), and is no code.
            res.url().includes('/_next/static/chunks/') && b.includes(EVENTS_URL)
              ? { path: new URL(res.url()).pathname, bytes: gzipSync(b, { level: 9 }).length, sender: b.includes('sendBeacon') }
              : undefined,
          () => undefined,
        ),
      );
    }
  });
  const traced = opts.traced ? page.waitForResponse((r) => r.url().endsWith('/api/trace/session') && r.request().method() === 'POST') : undefined;
  const html = await (await page.goto(url, { waitUntil: 'networkidle' }))!.text();
  if (vendor) {
    // Wait until what loads after the page is interactive has loaded: the container, and the pixel on general brands.
    for (let i = 0; i < 50 && !vendor.requests.some((r) => r.url().includes('/gtm.js')); i++) await page.waitForTimeout(100);
    await page.waitForLoadState('networkidle');
  }
  if (traced && (await traced).status() !== 201) throw new Error(`${url}: the session trace was not stored`);
  if (opts.interact) {
    await page.mouse.wheel(0, 600);
    await page.locator('footer a[href^="/"]:not([data-full-load])').first().hover();
    await page.waitForLoadState('networkidle');
  }
  if (opts.leave) {
    await page.mouse.move(300, 300);
    await page.mouse.move(300, -10);
    await page.getByRole('dialog').waitFor();
    await page.waitForLoadState('networkidle');
  }
  await browser.close();
  const sizes = await Promise.all(bodies);
  const chunks = (await Promise.all(eventsChunks)).filter((c) => c !== undefined);
  // the scripts the HTML names: script tags, and the chunk preloads the after-paint loader runs
  const initial = new Set(namedScripts(html).map((src) => new URL(src, url).pathname));
  const events = {
    lazy: chunks.filter((c) => c.sender && !initial.has(c.path)),
    initial: chunks.filter((c) => initial.has(c.path)).map((c) => c.path),
    initialScripts: initial.size,
  };
  // The events chunk is fetched once the page is idle, sometimes before network idle and sometimes
  // after: it is never first-load code, so it is left out here and reported on the events row.
  const lazyEvents = new Set(events.lazy.map((c) => c.path));
  const counted = sizes.filter((s) => !lazyEvents.has(s.path));
  return { bytes: counted.reduce((a, b) => a + b.gz, 0), files: counted.length, events };
}

/**
 * Where the funnel events code came from on a page: the chunk that sends them (the endpoint's path
 * and sendBeacon), fetched by the runtime after the page's own scripts; and any script the HTML
 * names (its first load) with the endpoint's path in it at all, which must be none.
 */
interface EventsCode {
  lazy: { path: string; bytes: number }[];
  initial: string[];
  initialScripts: number;
}

/** The funnel events row: nothing of the events code among any page's first scripts, and exactly one lazy chunk holding it. */
function eventsRow(pages: { path: string; events: EventsCode }[]): Row {
  const inFirstLoad = pages.flatMap((p) => p.events.initial.map((c) => `${p.path}: ${c}`));
  const lazy = new Map(pages.flatMap((p) => p.events.lazy.map((c) => [c.path, c.bytes] as const)));
  // A page may reach network idle before its idle callback fetched the chunk (a busy machine): counted, not required.
  const fetched = pages.filter((p) => p.events.lazy.length > 0).length;
  const ok = inFirstLoad.length === 0 && lazy.size === 1 && pages.every((p) => p.events.initialScripts > 0);
  const [chunk, bytes] = [...lazy][0] ?? ['none', 0];
  return {
    figure: 'funnel events code in the first load',
    measured: inFirstLoad.length
      ? `in the first scripts of ${inFirstLoad.join(', ')}`
      : `0 B in the first scripts of ${pages.length} pages; ${lazy.size} lazy chunk (${KiB(bytes)}) fetched after idle on ${fetched} of them before network idle`,
    budget: '0 B, one lazy chunk',
    ok,
    note: `the scripts each page's HTML names are its first load: none may hold "${EVENTS_URL}"; the sending code (${chunk}) is one chunk the runtime fetches once idle (blocks/chrome/visitTracking.ts); the figures above wait for network idle and leave it out whenever it arrived first`,
  };
}

let minimalBuilt: string | undefined;

/**
 * Next's own minimal pages-router app (one page, `<p>Hello</p>`) built with the same next version in
 * .bench/minimal: the first-load JS reference, and the Lighthouse reference (lighthouseRows.ts). Built
 * once per bench run.
 */
export function buildMinimalApp(root: string): string {
  if (minimalBuilt) return minimalBuilt;
  const dir = join(root, '.bench/minimal');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'pages'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'next-minimal', private: true }));
  writeFileSync(join(dir, 'pages/index.js'), 'export default function Home() { return <p>Hello</p>; }\n');
  writeFileSync(join(dir, 'next.config.mjs'), `export default { turbopack: { root: ${JSON.stringify(root)} } };\n`);
  const r = spawnSync('npx', ['next', 'build'], { cwd: dir, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (r.status !== 0) throw new Error('the minimal app did not build');
  return (minimalBuilt = dir);
}

export async function firstLoadJsRows(ctx: BenchContext): Promise<Row[]> {
  const minPort = ctx.port + 1;
  const minimal = await startServer(buildMinimalApp(ctx.root), minPort);
  try {
    const base = `http://${ctx.brand}.localhost:${ctx.port}`;
    const plain = await firstLoadJs(`${base}${PLAIN_PAGE}`);
    const measured: { path: string; bytes: number; files: number; events: EventsCode }[] = [];
    for (const path of CANDIDATES) measured.push({ path, ...(await firstLoadJs(`${base}${path}`)) });
    measured.push({ path: '/ + exit popup opened', ...(await firstLoadJs(`${base}/`, { leave: true })) });
    const interacted = await firstLoadJs(`${base}${PLAIN_PAGE}`, { interact: true });
    const tracked = await firstLoadJs(`${base}${PLAIN_PAGE}?source1=bench&gclid=bench-${Date.now()}`, { traced: true });
    const heavy = measured.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    // A general brand (tag manager + pixel) with every third party on, against the same page with them intercepted away.
    const generalPlain = await firstLoadJs(`http://${GENERAL}.localhost:${ctx.port}${PLAIN_PAGE}`);
    const generalAll = await firstLoadJs(`http://${GENERAL}.localhost:${ctx.port}${PLAIN_PAGE}`, { thirdParties: true });
    const min = await firstLoadJs(`http://127.0.0.1:${minPort}/`);
    const over = plain.bytes / min.bytes;
    return [
      {
        figure: `first-load JS, page without widgets (${PLAIN_PAGE})`,
        measured: `${KiB(plain.bytes)} in ${plain.files} files (${over.toFixed(3)}× Next minimal ${KiB(min.bytes)})`,
        budget: '≤ 1.05×',
        ok: over <= 1.05,
      },
      {
        figure: `heaviest page (${heavy.path})`,
        measured: `${KiB(heavy.bytes)} (${(heavy.bytes / min.bytes).toFixed(3)}×)`,
        note: measured.map((m) => `${m.path} ${KiB(m.bytes)}`).join(', '),
      },
      {
        figure: 'first scroll and link hover',
        measured: `+${KiB(interacted.bytes - plain.bytes)} in ${interacted.files - plain.files} chunk(s) (${PLAIN_PAGE})`,
        note: 'fetched on interaction, not with the page: the router calls and the link prefetch on the first pointer over (or focus on) a link, the sticky apply watcher on the first scroll',
      },
      {
        figure: 'third parties',
        measured: `${GENERAL}${PLAIN_PAGE}: ${KiB(generalPlain.bytes)} of our JS vendors unreachable, ${KiB(generalAll.bytes)} with the tag manager and pixel answering`,
        note: "the vendors' own scripts are not counted; the inline error reporter is in every page's HTML (~0.6 KiB gzip)",
      },
      eventsRow([{ path: PLAIN_PAGE, events: plain.events }, ...measured, { path: `${GENERAL}${PLAIN_PAGE}`, events: generalPlain.events }]),
      {
        figure: 'visit tracking (session trace posted)',
        measured: `+${KiB(tracked.bytes - plain.bytes)} in ${tracked.files - plain.files} lazy chunk(s), loaded after idle and only while a trace is due`,
      },
    ];
  } finally {
    stopServer(minimal);
  }
}
