/**
 * Where a page's main-thread time goes on load, by script and function: Chromium with the CPU
 * slowed 4× (as Lighthouse's mobile preset), V8's sampling profiler from navigation until the page
 * has been idle, self time summed by script file and by function. A tool to find what to cut,
 * not a bench row: `npx tsx scripts/bench/lighthouseProfile.ts <url>… [--runs=n]`.
 */
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const file = (url: string, page: string) => (!url ? '' : url === page ? '(inline)' : (url.split('/').pop() ?? url));

async function profileOnce(url: string): Promise<{ byFile: Map<string, number>; byFn: Map<string, number>; total: number }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.hydrated !== undefined, undefined, { timeout: 30_000 }).catch(() => undefined);
    // The idle work (funnel counts, tag manager) is asked for within 3 s of the load.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 3500)));
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const byFile = new Map<string, number>();
    const byFn = new Map<string, number>();
    let total = 0;
    profile.samples.forEach((id, i) => {
      const node = byId.get(id)!;
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      const { functionName, url: u, lineNumber, columnNumber } = node.callFrame;
      if (functionName === '(idle)') return;
      total += ms;
      const f = file(u, url) || functionName;
      byFile.set(f, (byFile.get(f) ?? 0) + ms);
      const fn = `${functionName || '(anon)'} ${f}:${lineNumber + 1}:${columnNumber + 1}`;
      byFn.set(fn, (byFn.get(fn) ?? 0) + ms);
    });
    return { byFile, byFn, total };
  } finally {
    await browser.close();
  }
}

const top = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `  ${v.toFixed(0).padStart(6)} ms  ${k}`)
    .join('\n');

async function main() {
  const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 2);
  for (const url of process.argv.slice(2).filter((a) => !a.startsWith('--'))) {
    const sum = { byFile: new Map<string, number>(), byFn: new Map<string, number>(), total: 0 };
    for (let i = 0; i < runs; i++) {
      const p = await profileOnce(url);
      sum.total += p.total / runs;
      for (const [k, v] of p.byFile) sum.byFile.set(k, (sum.byFile.get(k) ?? 0) + v / runs);
      for (const [k, v] of p.byFn) sum.byFn.set(k, (sum.byFn.get(k) ?? 0) + v / runs);
    }
    console.log(`\n${url}: ${sum.total.toFixed(0)} ms busy (mean of ${runs})\nby file:\n${top(sum.byFile, 12)}\nby function:\n${top(sum.byFn, 25)}`);
  }
}

void main();
