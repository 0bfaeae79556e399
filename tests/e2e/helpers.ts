import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { E2E_PORT } from '../../playwright.config';

export const PORT = E2E_PORT;
export const brandUrl = (id: string, path = '/', port = PORT) => `http://${id}.localhost:${port}${path}`;

/** Open a page and wait until React has hydrated it (the layout's effect marks <html data-hydrated>). */
export async function gotoHydrated(page: Page, url: string) {
  await page.goto(url);
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa'];
/**
 * Only violations are reported node by node: axe builds a unique selector for every node of every
 * result it reports, and the passes (every link, every text for contrast) were most of that work.
 */
const AXE_OPTIONS = { runOnly: { type: 'tag' as const, values: AXE_TAGS }, resultTypes: ['violations' as const] };

/**
 * The page's axe violations (WCAG 2.0 A/AA and 2.1 AA). A page without frames is checked in place
 * with axe.run. axe's Playwright runner checks each frame apart and merges the results in a blank
 * tab it opens for every check, which cost as much as the check itself; it is kept for a page with
 * frames (the studio's previews), whose results only it merges.
 */
export async function axeViolations(page: Page): Promise<axe.Result[]> {
  if (page.frames().length > 1) return (await new AxeBuilder({ page }).options(AXE_OPTIONS).analyze()).violations;
  await page.evaluate(axe.source);
  return page.evaluate((options) => (window as unknown as { axe: typeof axe }).axe.run(document, options).then((r) => r.violations), AXE_OPTIONS);
}

/** axe finds nothing on the page; the report is printed when it does. */
export async function expectNoAxeViolations(page: Page) {
  const summary = (await axeViolations(page)).map(
    (v) =>
      `${v.id}: ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')}`,
  );
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

/**
 * A raw HTTP GET with any Host header (browsers will not send a malformed one), to the suite's
 * server unless another port is given; a new connection each time unless an agent is.
 */
export function rawGet(
  path: string,
  host: string,
  opts: { port?: number; agent?: Agent } = {},
): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: opts.port ?? PORT, path, agent: opts.agent ?? false, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sums the layout shifts (without recent input) of every page the context opens, from the first paint on: read with layoutShifts(page). */
export async function watchLayoutShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __shift: number; __shifted: string[] };
    w.__shift = 0;
    w.__shifted = [];
    type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] };
    // what moved, for a failing test's message: tag, id and classes of each shifted element
    const describe = (n?: Node | null) =>
      n instanceof Element
        ? `${n.tagName.toLowerCase()}${n.id ? `#${n.id}` : ''}${n.classList.length ? `.${[...n.classList].slice(0, 3).join('.')}` : ''}`
        : String(n?.nodeName);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Shift[])
        if (!e.hadRecentInput) {
          w.__shift += e.value;
          w.__shifted.push(`${e.value.toFixed(4)} at ${Math.round(e.startTime)} ms: ${(e.sources ?? []).map((x) => describe(x.node)).join(', ')}`);
        }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** What shifted on a page of a context watchLayoutShifts watches (for a failing test's message). */
export const layoutShiftSources = (page: Page): Promise<string> => page.evaluate(() => (window as unknown as { __shifted: string[] }).__shifted.join('; '));

/** The layout shifts summed so far on a page of a context watchLayoutShifts watches. */
export const layoutShifts = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __shift: number }).__shift);

/**
 * A finger in Chromium's own input pipeline (so that the browser decides, as on a phone, whether
 * it slides a control or scrolls the page): down at `from`, ten moves to `to`, up.
 */
export async function touchSwipe(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  for (let i = 1; i <= 10; i++)
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x: from.x + ((to.x - from.x) * i) / 10, y: from.y + ((to.y - from.y) * i) / 10 }],
    });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/**
 * Whether the page has stopped scrolling: the same scroll position two frames apart. A swipe
 * flings the page on after the finger lifts, and a touch during the fling only stops it (on a
 * phone as here): it reaches no control. Poll it (`expect.poll(() => pageAtRest(page))`) before
 * touching a control after a scroll.
 */
export const pageAtRest = (page: Page): Promise<boolean> =>
  page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const y = window.scrollY;
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.scrollY === y)));
      }),
  );
