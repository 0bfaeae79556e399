/**
 * Lighthouse mobile performance rows of `npm run bench` (and the row for what the tag manager costs).
 *
 * Each page: Lighthouse's default (mobile) settings — a Moto G Power sized screen, 4× CPU slowdown and
 * a slow-4G network, simulated — performance category only, in Debian's Chromium (CHROME_PATH). One run
 * per page, the median by score of three when that run is within 3 points of the budget (three runs of
 * every page took 11 minutes on this shared 2-core machine; LIGHTHOUSE_RUNS=n fixes the count).
 * Next's own minimal app is measured the same way before each brand's pages: on a shared machine
 * TBT moves with the load of the moment, and that row shows what the moment allowed a page with
 * nothing of ours in it.
 * Third-party hosts (tag manager, analytics, pixel) are unreachable offline: Lighthouse blocks their
 * requests, which then fail at once — what is measured is our own loading strategy, not the vendors'.
 *
 * The tag-manager row: the payday home as served (gtmId configured) against the same page with the gtmId
 * taken out of its page data, alternating. Both go through puppeteer's request interception: the page's
 * HTML fetched by this script (and changed for "without"), the vendors' scripts answered at once, empty.
 */
import { mkdirSync } from 'node:fs';
import { get } from 'node:http';
import lighthouse from 'lighthouse';
import puppeteer, { type Browser, type HTTPRequest } from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium';

export const CHROME_PATH = process.env.CHROME_PATH ?? CHROMIUM_PATH;
export const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];
const FIXED_RUNS = process.env.LIGHTHOUSE_RUNS ? Math.max(1, Number(process.env.LIGHTHOUSE_RUNS)) : undefined;
export const LIGHTHOUSE_BUDGET = 95;

/** Home, a loan-type page, a state page, a city page, an article and the apply page of each brand. */
export const LIGHTHOUSE_PAGES: { brand: string; pages: [template: string, path: string][] }[] = [
  {
    brand: 'ipaydayloans',
    pages: [
      ['home', '/'],
      ['loan type', '/payday-loans'],
      ['state', '/location/ca'],
      ['city', '/location/ca/los-angeles'],
      ['article', '/blog/money-basics/debt-collector-rights-fdcpa'],
      ['apply', '/apply'],
    ],
  },
  {
    brand: 'usbadcreditloans',
    pages: [
      ['home', '/'],
      ['loan type', '/payday-loans'],
      ['state', '/payday-loans/location/california'],
      ['city', '/payday-loans/location/los-angeles'],
      ['article', '/blog/money-basics/start-emergency-fund-tight-budget'],
      ['apply', '/apply'],
    ],
  },
  {
    brand: 'ustitleloans',
    pages: [
      ['home', '/'],
      ['loan type', '/title-loans'],
      ['state', '/title-loans/california'],
      ['city', '/title-loans/los-angeles'],
      ['article', '/blog/personal-loans/prequalification-soft-pull-vs-hard-inquiry'],
      ['apply', '/apply-title-loans'],
    ],
  },
];

const THIRD_PARTY = /^https:\/\/(www\.googletagmanager\.com|[a-z0-9-]+\.google-analytics\.com|[a-z0-9-]+\.analytics\.google\.com|analytics\.tiktok\.com)\//;

export interface LighthouseRow {
  label: string;
  url: string;
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  runs: number;
  /** Lighthouse's measure of this machine's speed at the time (a quiet desktop ≈ 1500–2500; TBT scales with it) */
  benchmarkIndex?: number;
  /** the benchmarkIndex of each run behind the row */
  speeds?: number[];
  error?: string;
}

type Rewrite = (html: string) => string;

/** Answers third parties locally; with `rewrite`, the page's own HTML is fetched from the server here and changed before Chromium sees it. */
async function intercept(request: HTTPRequest, pageUrl: string, rewrite?: Rewrite): Promise<void> {
  const url = request.url();
  if (THIRD_PARTY.test(url)) {
    if (request.resourceType() === 'script') return request.respond({ status: 200, contentType: 'text/javascript', body: '' });
    return request.respond({ status: 204, headers: { 'access-control-allow-origin': '*' }, body: '' });
  }
  if (rewrite && url === pageUrl && request.resourceType() === 'document') {
    const res = await getViaLoopback(url);
    return request.respond({ status: res.status, headers: res.headers, contentType: res.headers['content-type'] ?? 'text/html', body: rewrite(res.body) });
  }
  return request.continue();
}

/** Node's fetch drops a Host header and does not resolve *.localhost: ask the loopback address with the brand's Host. */
function getViaLoopback(url: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port: u.port, path: u.pathname + u.search, headers: { host: u.host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) {
          if (v !== undefined && !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k))
            headers[k] = Array.isArray(v) ? v.join(', ') : v;
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    }).on('error', reject);
  });
}

/** Lighthouse's own request blocking (fails at once, as an unreachable host would without the wait). */
const BLOCKED = ['*googletagmanager.com*', '*google-analytics.com*', '*analytics.google.com*', '*analytics.tiktok.com*'];

/**
 * One Lighthouse run in a fresh tab. Without `rewrite`: third parties blocked by Lighthouse itself.
 * With it: every request of the tab goes through puppeteer's interception (intercept above).
 */
async function runOnce(browser: Browser, url: string, rewrite?: Rewrite, retry = true): Promise<Omit<LighthouseRow, 'label' | 'runs'>> {
  const page = await browser.newPage();
  try {
    if (rewrite) {
      await page.setRequestInterception(true);
      page.on('request', (r) => void intercept(r, url, rewrite).catch(() => r.abort().catch(() => undefined)));
    }
    const result = await lighthouse(
      url,
      { output: 'json', logLevel: 'error', onlyCategories: ['performance'], ...(rewrite ? {} : { blockedUrlPatterns: BLOCKED }) },
      undefined,
      page,
    );
    const lhr = result?.lhr;
    if (!lhr) throw new Error('no Lighthouse result');
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    return {
      url,
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: audit('largest-contentful-paint'),
      tbtMs: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    };
  } catch (err) {
    // A trace that failed to record (NO_NAVSTART, seen now and then on a loaded machine) is run again once.
    if (retry) return runOnce(browser, url, rewrite, false);
    throw err;
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** The run with the median score (its own LCP/TBT/CLS, so the figures belong together). */
function median(rows: Omit<LighthouseRow, 'label' | 'runs'>[]): Omit<LighthouseRow, 'label' | 'runs'> {
  const sorted = [...rows].sort((a, b) => a.score - b.score);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

async function withBrowser<T>(fn: (browser: Browser) => Promise<T>): Promise<T> {
  const userDataDir = `${process.cwd()}/.bench/lighthouse-profile`;
  mkdirSync(userDataDir, { recursive: true });
  const browser = await puppeteer.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS, headless: true, userDataDir, defaultViewport: null });
  try {
    return await fn(browser);
  } finally {
    await browser.close().catch(() => undefined);
  }
}

/**
 * One run; when its score is within 3 points of the budget (92–98), two more and the median: a clear
 * result costs one run, a doubtful one three (LIGHTHOUSE_RUNS sets a fixed count for every page).
 */
async function measure(browser: Browser, label: string, url: string): Promise<LighthouseRow> {
  const done: Omit<LighthouseRow, 'label' | 'runs'>[] = [];
  let error: string | undefined;
  const doubtful = (score: number) => Math.abs(score - LIGHTHOUSE_BUDGET) <= 3;
  const wanted = () => FIXED_RUNS ?? (done.length && doubtful(done[0]!.score) ? 3 : 1);
  for (let i = 0; i < wanted() && i < 4; i++) {
    try {
      done.push(await runOnce(browser, url));
    } catch (err) {
      error = (err as Error).message;
    }
  }
  if (!done.length) return { label, url, score: 0, lcpMs: NaN, tbtMs: NaN, cls: NaN, runs: 0, error };
  const speeds = done.map((r) => r.benchmarkIndex ?? NaN);
  return { label, runs: done.length, ...median(done), speeds, ...(error ? { error } : {}) };
}

/**
 * Every page of LIGHTHOUSE_PAGES on the server at `origin(brand)`, and, with `reference`, that page
 * (Next's minimal app) measured once before each brand's pages: what this machine allows at the time,
 * in the same browser, between the pages it is compared with. `speeds`: Lighthouse's benchmarkIndex of
 * every run, the machine's speed as it varied over them.
 */
export async function lighthousePages(
  origin: (brand: string) => string,
  reference?: string,
): Promise<{ rows: LighthouseRow[]; reference?: LighthouseRow; speeds: number[] }> {
  return withBrowser(async (browser) => {
    const rows: LighthouseRow[] = [];
    const references: Omit<LighthouseRow, 'label' | 'runs'>[] = [];
    const speeds: number[] = [];
    for (const { brand, pages } of LIGHTHOUSE_PAGES) {
      if (reference) references.push(await runOnce(browser, reference).catch(() => undefined as never));
      for (const [template, path] of pages) {
        const row = await measure(browser, `${brand} ${template} ${path}`, origin(brand) + path);
        rows.push(row);
        speeds.push(...(row.speeds ?? []));
      }
    }
    const measuredRefs = references.filter(Boolean);
    speeds.push(...measuredRefs.map((r) => r.benchmarkIndex ?? NaN));
    return {
      rows,
      speeds: speeds.filter((n) => Number.isFinite(n)),
      ...(measuredRefs.length ? { reference: { label: 'Next minimal', runs: measuredRefs.length, ...median(measuredRefs) } } : {}),
    };
  });
}

/** The page's data without its tag-manager container: the layout then loads nothing of the tag manager. */
export const withoutTagManager: Rewrite = (html) => html.replace(/,?"gtmId":"[^"]*"/g, '');

/** What the tag manager costs: the payday home with its gtmId against the same page without, `runs` each, alternating. */
export async function lighthouseTagManager(url: string, runs = FIXED_RUNS ?? 3): Promise<{ with: LighthouseRow; without: LighthouseRow }> {
  return withBrowser(async (browser) => {
    const on: Omit<LighthouseRow, 'label' | 'runs'>[] = [];
    const off: Omit<LighthouseRow, 'label' | 'runs'>[] = [];
    for (let i = 0; i < runs; i++) {
      // The same interception path for both (the page's HTML fetched and passed on), only the rewrite differs.
      on.push(await runOnce(browser, url, (html) => html));
      off.push(await runOnce(browser, url, withoutTagManager));
    }
    return {
      with: { label: 'tag manager configured', runs, ...median(on) },
      without: { label: 'no tag manager', runs, ...median(off) },
    };
  });
}
