/**
 * A quiet network, as this suite means it: the load event, then half a second with no request of
 * the page open. Playwright's own 'networkidle' keeps its count per document and now and then
 * never comes after a navigation whose old document sent a beacon as it left (the funnel flushes
 * its queue on pagehide): one CSP sweep of ~130 navigations waited for it until the test's time
 * ran out. This count is the page's, whatever document sent the request, beacons aside, and a wait
 * that does not end says which requests are still open.
 *
 * Specs that wait for it import `test` from here: every page of the test's context, the first
 * included, is followed from its creation, so no request is missed.
 */
import { test as base, type Page, type Request } from '@playwright/test';

const QUIET_MS = 500;
const followers = new WeakMap<Page, (timeoutMs: number) => Promise<void>>();

/**
 * Beacons are the requests that outlive the document that sent them, and that document never
 * reads their answer: nothing on screen waits for one, so neither does this.
 */
const counted = (r: Request) => r.resourceType() !== 'ping';

function follow(page: Page): void {
  const open = new Set<Request>();
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((f) => f());
  page.on('request', (r) => {
    if (!counted(r)) return;
    open.add(r);
    changed();
  });
  const ended = (r: Request) => {
    if (open.delete(r)) changed();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  followers.set(
    page,
    (timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        let idle: ReturnType<typeof setTimeout> | undefined;
        const stop = () => {
          clearTimeout(idle);
          clearTimeout(limit);
          listeners.delete(arm);
        };
        // any request starting or ending restarts the half second
        const arm = () => {
          clearTimeout(idle);
          idle = open.size
            ? undefined
            : setTimeout(() => {
                stop();
                resolve();
              }, QUIET_MS);
        };
        const limit = setTimeout(() => {
          stop();
          const still = [...open].map((r) => `${r.method()} ${r.url()}`).join(', ');
          reject(new Error(`the network of ${page.url()} was not quiet within ${timeoutMs} ms; still open: ${still || '(none)'}`));
        }, timeoutMs);
        listeners.add(arm);
        arm();
      }),
  );
}

/** Waits for the page's load event, then for a quiet network (see above). */
export async function networkQuiet(page: Page, timeoutMs = 30_000): Promise<void> {
  const quiet = followers.get(page);
  if (!quiet) throw new Error("networkQuiet: this page is not followed; import `test` from './network' in the spec");
  await page.waitForLoadState('load');
  await quiet(timeoutMs);
}

/** @playwright/test's `test`, with every page of the context followed from its creation. */
export const test = base.extend({
  context: async ({ context }, provide) => {
    context.on('page', follow);
    await provide(context);
  },
});
export { expect } from '@playwright/test';
