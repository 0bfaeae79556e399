/**
 * Lighthouse mobile performance rows of `npm run bench` (and the row for what the tag manager costs).
 *
 * Each page: Lighthouse's default (mobile) settings — a Moto G Power sized screen, 4× CPU slowdown and
 * a slow-4G network, simulated — performance category only, in Debian's Chromium (CHROME_PATH). One run
 * per page, the median by score of three when that run is near the budget (three runs of every page
 * took 11 minutes on this shared 2-core machine; LIGHTHOUSE_RUNS=n fixes the count).
 * The budget is relative: Next's own minimal app is measured the same way before each brand's pages
 * and after the last (interleaved, so the machine's moment affects both alike: on a shared machine
 * TBT moves with the load), and each page must score within SCORE_MARGIN points of that page's median
 * score, with a TBT within TBT_RATIO× its median TBT. A stock Next page sending our payday page's HTML and stylesheet
 * without our JavaScript (sameBytes.ts) is measured right after each brand's reference run: a reference row, no budget.
 * Each run also keeps Lighthouse's own reading of its trace (its CPU time scaled by the 4× slowdown):
 * main-thread time by kind of work, by script, and the long tasks that make up TBT.
 * Third-party hosts (tag manager, analytics, pixel) are unreachable offline: Lighthouse blocks their
 * requests, which then fail at once — what is measured is our own loading strategy, not the vendors'.
 *
 * The tag-manager row: the payday home as served (gtmId configured) against the same page with the gtmId
 * taken out of its page data, alternating. Both go through puppeteer's request interception: the page's
 * HTML fetched by this script (and changed for "without"), the vendors' scripts answered at once, empty.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get } from 'node:http';
import lighthouse, { type Result } from 'lighthouse';
import puppeteer, { type Browser, type HTTPRequest } from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium';

export const CHROME_PATH = process.env.CHROME_PATH ?? CHROMIUM_PATH;
export const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];
const FIXED_RUNS = process.env.LIGHTHOUSE_RUNS ? Math.max(1, Number(process.env.LIGHTHOUSE_RUNS)) : undefined;
import { runsAsScript } from '../../engine/site/csp.mjs';
import { SCORE_MARGIN, TBT_RATIO, withinBudget } from './lighthouseBudget';
import { onCpuTime, type CpuTimeReading } from './cpuTimeTrace';

export { SCORE_MARGIN, TBT_RATIO, withinBudget } from './lighthouseBudget';

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
  /**
   * Lighthouse's figures on the run's trace with each main-thread task as long as the CPU time it got (cpuTimeTrace.ts): what a
   * quiet machine reads; the row's is the median of its runs'. The budget is judged on it.
   */
  cpu?: CpuTimeReading;
  /** what the run's trace spent main-thread time on (the row's run) */
  trace?: TraceSummary;
  error?: string;
}

/** Lighthouse's reading of one run's trace, in ms of the simulated 4×-slower CPU. */
export interface TraceSummary {
  /** main-thread time by kind of work (script evaluation, style & layout, parse HTML, …), largest first */
  work: [kind: string, ms: number][];
  /** main-thread time by script (Lighthouse lists those over 50 ms … and the document itself) */
  scripts: [url: string, ms: number][];
  /** the long tasks (over 50 ms), by the script they are attributed to */
  longTasks: [url: string, ms: number][];
}

type Details = { items?: Record<string, unknown>[] } | undefined;
const itemsOf = (lhr: { audits: Record<string, { details?: unknown }> }, id: string) =>
  ((lhr.audits[id]?.details as Details)?.items ?? []) as Record<string, unknown>[];
const num = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? NaN));
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'object' && v && 'url' in v ? String((v as { url: unknown }).url) : String(v));

function traceSummary(lhr: { audits: Record<string, { details?: unknown }> }): TraceSummary {
  const pairs = (id: string, key: string, value: string): [string, number][] =>
    itemsOf(lhr, id)
      .map((i): [string, number] => [str(i[key]), Math.round(num(i[value]))])
      .filter(([, ms]) => Number.isFinite(ms))
      .sort((a, b) => b[1] - a[1]);
  return {
    work: pairs('mainthread-work-breakdown', 'groupLabel', 'duration'),
    scripts: pairs('bootup-time', 'url', 'total'),
    longTasks: pairs('long-tasks', 'url', 'duration'),
  };
}

export type Rewrite = (html: string) => string;

/**
 * Answers third parties locally; with `rewrite`, the page's own HTML is fetched from the server here and changed before Chromium
 * sees it; with `rewriteScript`, so are the page's own scripts (an experiment on the build's output without building again).
 */
async function intercept(request: HTTPRequest, pageUrl: string, rewrite?: Rewrite, rewriteScript?: Rewrite): Promise<void> {
  const url = request.url();
  if (THIRD_PARTY.test(url)) {
    if (request.resourceType() === 'script') return request.respond({ status: 200, contentType: 'text/javascript', body: '' });
    return request.respond({ status: 204, headers: { 'access-control-allow-origin': '*' }, body: '' });
  }
  const own = new URL(url).origin === new URL(pageUrl).origin;
  const change = url === pageUrl && request.resourceType() === 'document' ? rewrite : own && request.resourceType() === 'script' ? rewriteScript : undefined;
  if (change) {
    const res = await getViaLoopback(url);
    return request.respond({ status: res.status, headers: res.headers, contentType: res.headers['content-type'] ?? 'text/html', body: change(res.body) });
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
/** Lighthouse's request blocking, unless the run intercepts requests itself (an audit of kept artifacts must repeat the run's settings). */
export const blocking = (intercepted: unknown) => (intercepted ? {} : { blockedUrlPatterns: BLOCKED });

/**
 * One Lighthouse run in a fresh tab; with `saveTo`, its artifacts (trace, devtools log) are kept in that folder (Lighthouse's -G).
 * `settings`: more of Lighthouse's settings (e.g. additionalTraceCategories).
 */
export async function lighthouseResult(
  browser: Browser,
  url: string,
  rewrite?: Rewrite,
  rewriteScript?: Rewrite,
  saveTo?: string,
  settings: object = {},
): Promise<Result> {
  const page = await browser.newPage();
  try {
    if (rewrite || rewriteScript) {
      await page.setRequestInterception(true);
      page.on('request', (r) => void intercept(r, url, rewrite, rewriteScript).catch(() => r.abort().catch(() => undefined)));
    }
    const result = await lighthouse(
      url,
      {
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        ...blocking(rewrite || rewriteScript),
        ...(saveTo ? { gatherMode: saveTo, auditMode: saveTo } : {}),
        ...settings,
      },
      undefined,
      page,
    );
    return checked(result?.lhr);
  } finally {
    await page.close().catch(() => undefined);
  }
}

export function checked(lhr: Result | undefined): Result {
  if (!lhr) throw new Error('no Lighthouse result');
  if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  return lhr;
}

async function runOnce(browser: Browser, url: string, rewrite?: Rewrite, retry = true): Promise<Omit<LighthouseRow, 'label' | 'runs'>> {
  const saved = mkdtempSync(join(tmpdir(), 'lighthouse-'));
  try {
    const lhr = await lighthouseResult(browser, url, rewrite, undefined, saved);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    return {
      cpu: await onCpuTime(url, saved, blocking(rewrite)),
      url,
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: audit('largest-contentful-paint'),
      tbtMs: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
      trace: traceSummary(lhr as never),
    };
  } catch (err) {
    // A trace that failed to record (NO_NAVSTART, seen now and then on a loaded machine) is run again once.
    if (retry) return runOnce(browser, url, rewrite, false);
    throw err;
  } finally {
    rmSync(saved, { recursive: true, force: true });
  }
}

/** The median score, LCP and TBT of the runs' CPU-time readings (each its own median: they move little from run to run). */
function cpuMedian(rows: { cpu?: CpuTimeReading }[]): CpuTimeReading | undefined {
  const readings = rows.map((r) => r.cpu).filter((c): c is CpuTimeReading => !!c);
  if (!readings.length) return undefined;
  return { score: middle(readings.map((c) => c.score)), lcpMs: middle(readings.map((c) => c.lcpMs)), tbtMs: middle(readings.map((c) => c.tbtMs)) };
}

/** The run with the median score (its own LCP/TBT/CLS, so the figures belong together). */
function median(rows: Omit<LighthouseRow, 'label' | 'runs'>[]): Omit<LighthouseRow, 'label' | 'runs'> {
  const sorted = [...rows].sort((a, b) => a.score - b.score);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

const middle = (values: number[]) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const m = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(m)]! : (sorted[m - 1]! + sorted[m]!) / 2;
};

/** A Chromium for Lighthouse runs; `profile`: its profile folder under .bench (one per concurrent tool). */
export async function withBrowser<T>(fn: (browser: Browser) => Promise<T>, profile = 'lighthouse-profile'): Promise<T> {
  const userDataDir = `${process.cwd()}/.bench/${profile}`;
  mkdirSync(userDataDir, { recursive: true });
  const browser = await puppeteer.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS, headless: true, userDataDir, defaultViewport: null });
  try {
    return await fn(browser);
  } finally {
    await browser.close().catch(() => undefined);
  }
}

/** Next's minimal page as the budget's reference: the median score and the median TBT of its interleaved runs. */
export interface Reference {
  score: number;
  tbtMs: number;
  /** the same on CPU time (cpuTimeTrace.ts) */
  cpu?: CpuTimeReading;
  row: LighthouseRow;
  /** every run, in the order measured: score and TBT */
  runs: { score: number; tbtMs: number; cpu?: CpuTimeReading }[];
}

/** The same-bytes page (sameBytes.ts): its median run, every run's score and TBT, and the time its runs took (ms). */
export interface SameBytesRow extends LighthouseRow {
  scores: { score: number; tbtMs: number; cpu?: CpuTimeReading }[];
  ms: number;
}

/**
 * One run; when it is near the budget on CPU time or as measured, or outside it as measured (against the reference measured so far), two more and the median: a
 * clear result costs one run, a doubtful one three (LIGHTHOUSE_RUNS sets a fixed count for every page).
 */
async function measure(
  browser: Browser,
  label: string,
  url: string,
  refSoFar: () => { score: number; tbtMs: number; cpu?: CpuTimeReading } | undefined,
): Promise<LighthouseRow> {
  const done: Omit<LighthouseRow, 'label' | 'runs'>[] = [];
  let error: string | undefined;
  const near = (run: { score: number; tbtMs: number }, against: { score: number; tbtMs: number }) => {
    const tbtLimit = TBT_RATIO * against.tbtMs;
    return Math.abs(run.score - (against.score - SCORE_MARGIN)) <= 2 || Math.abs(run.tbtMs - tbtLimit) <= 0.15 * tbtLimit;
  };
  // Doubtful when either reading is near the budget, or the reading as measured is outside it: both are
  // printed, and a single run as measured moves by several points with the machine's moment.
  const doubtful = (measured: { score: number; tbtMs: number; cpu?: CpuTimeReading }) => {
    const ref = refSoFar();
    if (!ref) return false;
    const onCpu = measured.cpu && ref.cpu ? near(measured.cpu, ref.cpu) : false;
    return onCpu || near(measured, ref) || !withinBudget({ ...measured, runs: 1 }, ref);
  };
  const wanted = () => FIXED_RUNS ?? (done.length && doubtful(done[0]!) ? 3 : 1);
  for (let i = 0; i < wanted() && i < 4; i++) {
    try {
      done.push(await runOnce(browser, url));
    } catch (err) {
      error = (err as Error).message;
    }
  }
  if (!done.length) return { label, url, score: 0, lcpMs: NaN, tbtMs: NaN, cls: NaN, runs: 0, error };
  const speeds = done.map((r) => r.benchmarkIndex ?? NaN);
  return { label, runs: done.length, ...median(done), cpu: cpuMedian(done), speeds, ...(error ? { error } : {}) };
}

/**
 * Every page of LIGHTHOUSE_PAGES on the server at `origin(brand)`, and `reference` (Next's minimal
 * app) measured before each brand's pages and once after the last: what this machine allows over
 * the run, in the same browser, between the pages it is compared with. `sameBytes` (optional): a
 * page measured once right after each brand's reference run. `speeds`: Lighthouse's
 * benchmarkIndex of every run, the machine's speed as it varied over them.
 */
export async function lighthousePages(
  origin: (brand: string) => string,
  reference: string,
  sameBytes?: string,
): Promise<{ rows: LighthouseRow[]; reference?: Reference; sameBytes?: SameBytesRow; speeds: number[] }> {
  return withBrowser(async (browser) => {
    const rows: LighthouseRow[] = [];
    const references: Omit<LighthouseRow, 'label' | 'runs'>[] = [];
    const same: Omit<LighthouseRow, 'label' | 'runs'>[] = [];
    let sameMs = 0;
    const speeds: number[] = [];
    const measureReference = async () => {
      const run = await runOnce(browser, reference).catch(() => undefined);
      if (run) references.push(run);
    };
    // right after the reference's run (one per brand: three), so that both meet the same moment of the machine
    const measureSameBytes = async () => {
      if (!sameBytes) return;
      const start = Date.now();
      const run = await runOnce(browser, sameBytes).catch(() => undefined);
      sameMs += Date.now() - start;
      if (run) same.push(run);
    };
    const refSoFar = () =>
      references.length
        ? { score: middle(references.map((r) => r.score)), tbtMs: middle(references.map((r) => r.tbtMs)), cpu: cpuMedian(references) }
        : undefined;
    for (const { brand, pages } of LIGHTHOUSE_PAGES) {
      await measureReference();
      await measureSameBytes();
      for (const [template, path] of pages) {
        const row = await measure(browser, `${brand} ${template} ${path}`, origin(brand) + path, refSoFar);
        rows.push(row);
        speeds.push(...(row.speeds ?? []));
      }
    }
    await measureReference();
    speeds.push(...references.map((r) => r.benchmarkIndex ?? NaN));
    const ref = refSoFar();
    speeds.push(...same.map((r) => r.benchmarkIndex ?? NaN));
    return {
      rows,
      speeds: speeds.filter((n) => Number.isFinite(n)),
      ...(same.length
        ? {
            sameBytes: {
              label: 'Next, our bytes',
              runs: same.length,
              ...median(same),
              cpu: cpuMedian(same),
              scores: same.map((r) => ({ score: r.score, tbtMs: r.tbtMs, ...(r.cpu ? { cpu: r.cpu } : {}) })),
              ms: sameMs,
            },
          }
        : {}),
      ...(ref
        ? {
            reference: {
              ...ref,
              row: { label: 'Next minimal', runs: references.length, ...median(references) },
              runs: references.map((r) => ({ score: r.score, tbtMs: r.tbtMs, ...(r.cpu ? { cpu: r.cpu } : {}) })),
            },
          }
        : {}),
    };
  });
}

/** The page's data without its tag-manager container: the layout then loads nothing of the tag manager. */
export const withoutTagManager: Rewrite = (html) => html.replace(/,?"gtmId":"[^"]*"/g, '');

/**
 * The page's HTML with nothing to run: every executable script (inline or external) and every script
 * preload taken out, data blocks, markup and stylesheets left as they are. What the page's bytes cost
 * the browser with no JavaScript at all, Next's included (lighthouseAB.ts `+nojs`).
 */
export const withoutScripts: Rewrite = (html) =>
  html
    .replace(/<script\b([^>]*)>[\s\S]*?<\/script\s*>/gi, (whole, attrs: string) => (runsAsScript(attrs) ? '' : whole))
    .replace(/<link\b[^>]*>/gi, (link) =>
      /\brel\s*=\s*["']?modulepreload\b/i.test(link) || (/\brel\s*=\s*["']?preload\b/i.test(link) && /\bas\s*=\s*["']?script\b/i.test(link)) ? '' : link,
    );

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
