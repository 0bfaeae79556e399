/**
 * Which synchronous browser calls a page makes on load, and how long each one held the main thread:
 * the storage areas (the first `localStorage`/`sessionStorage` access opens the area over IPC),
 * their reads and writes, `document.cookie` reads and writes, `navigator.sendBeacon`. Each is timed
 * (wall, performance.now) from an init script that wraps them, with the time since navigation, the
 * long task it fell in (if any) and the caller's first frames. The CPU is not slowed unless `--cpu=4`:
 * Lighthouse's simulated throttling records at full speed and multiplies each task by 4 afterwards. A tool to find what to move off the load path, not a bench row:
 *   npx tsx scripts/bench/loadWaits.ts <url>… [--runs=n] [--cpu=1]
 */
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium';

interface Call {
  what: string;
  at: number;
  ms: number;
  caller: string;
}

/** Runs in the page before its own scripts (serialised by Playwright: no closure over this module). */
function probe() {
  const calls: { what: string; at: number; ms: number; caller: string }[] = [];
  (window as unknown as { __waits: typeof calls }).__waits = calls;
  const caller = () =>
    (new Error().stack ?? '')
      .split('\n')
      .slice(3, 6)
      .map((l) =>
        l
          .trim()
          .replace(/^at /, '')
          .replace(/https?:\/\/[^/]+\/_next\/static\/chunks\//, ''),
      )
      .join(' < ');
  const timed = <T>(what: string, run: () => T): T => {
    const t0 = performance.now();
    try {
      return run();
    } finally {
      calls.push({ what, at: t0, ms: performance.now() - t0, caller: caller() });
    }
  };
  // which area a Storage object is, learnt as the page gets it (asking window here would open the other area)
  const areas = new WeakMap<object, string>();
  for (const name of ['localStorage', 'sessionStorage'] as const) {
    const own = Object.getOwnPropertyDescriptor(window, name) ?? Object.getOwnPropertyDescriptor(Object.getPrototypeOf(window), name);
    if (!own?.get) continue;
    const get = own.get;
    Object.defineProperty(window, name, {
      configurable: true,
      get: () => {
        const area = timed(`${name}`, () => get.call(window)) as object;
        areas.set(area, name.replace('Storage', ''));
        return area;
      },
    });
  }
  for (const m of ['getItem', 'setItem', 'removeItem'] as const) {
    const orig = Storage.prototype[m] as (...a: unknown[]) => unknown;
    (Storage.prototype as unknown as Record<string, unknown>)[m] = function (this: Storage, ...a: unknown[]) {
      return timed(`${areas.get(this) ?? '?'}.${m}(${String(a[0])})`, () => orig.apply(this, a));
    };
  }
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
  Object.defineProperty(Document.prototype, 'cookie', {
    configurable: true,
    get(this: Document) {
      return timed('cookie read', () => cookie.get!.call(this));
    },
    set(this: Document, v: string) {
      timed('cookie write', () => cookie.set!.call(this, v));
    },
  });
  const beacon = Navigator.prototype.sendBeacon;
  Navigator.prototype.sendBeacon = function (this: Navigator, ...a: Parameters<Navigator['sendBeacon']>) {
    return timed(`sendBeacon ${String(a[0])}`, () => beacon.apply(this, a));
  };
  const long: { at: number; ms: number }[] = [];
  (window as unknown as { __long: typeof long }).__long = long;
  new PerformanceObserver((list) => list.getEntries().forEach((e) => long.push({ at: e.startTime, ms: e.duration }))).observe({
    type: 'longtask',
    buffered: true,
  });
}

async function once(url: string, cpu: number): Promise<{ calls: Call[]; long: { at: number; ms: number }[] }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 });
    // tsx names functions with a helper the page does not have
    await context.addInitScript({ content: `var __name = (f) => f; (${probe.toString()})();` });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.hydrated !== undefined, undefined, { timeout: 30_000 }).catch(() => undefined);
    // the idle work (funnel counts, tag manager) is asked for within 3 s of the load
    await page.evaluate(() => new Promise((r) => setTimeout(r, 3500)));
    return await page.evaluate(() => {
      const w = window as unknown as { __waits: Call[]; __long: { at: number; ms: number }[] };
      return { calls: w.__waits, long: w.__long };
    });
  } finally {
    await browser.close();
  }
}

async function main() {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const runs = Number(arg('runs') ?? 1);
  const cpu = Number(arg('cpu') ?? 1);
  for (const url of process.argv.slice(2).filter((a) => !a.startsWith('--'))) {
    for (let i = 0; i < runs; i++) {
      const { calls, long } = await once(url, cpu);
      const inLong = (at: number) => long.find((t) => at >= t.at && at <= t.at + t.ms);
      const total = calls.reduce((s, c) => s + c.ms, 0);
      const inLongTasks = calls.reduce((s, c) => s + (inLong(c.at) ? c.ms : 0), 0);
      console.log(
        `\n${url} (run ${i + 1}, CPU ${cpu}×): ${calls.length} calls, ${total.toFixed(1)} ms in all, ${inLongTasks.toFixed(1)} ms inside long tasks; long tasks: ${long.map((t) => `${Math.round(t.at)}+${Math.round(t.ms)}`).join(', ')}`,
      );
      for (const c of calls) {
        const t = inLong(c.at);
        console.log(
          `  ${c.at.toFixed(0).padStart(6)} ms  ${c.ms.toFixed(2).padStart(6)} ms  ${c.what.padEnd(34)} ${t ? `[in long task ${Math.round(t.at)}+${Math.round(t.ms)}]` : ''}\n      ${c.caller}`,
        );
      }
    }
  }
}

void main();
