/**
 * The editor stays responsive on the largest page of the catalog (a brand's own layout of 20
 * blocks, usbadcreditloans' state page): reordering blocks by keyboard, undoing and redoing never
 * holds the main thread for more than 200 ms at a time.
 *
 * A task is measured by the CPU time the renderer's main thread spent in it (the trace's `tdur`),
 * not its wall time: on a loaded 2-core machine a task's wall time is mostly waiting for a core
 * (a 445 ms task seen at load 11 was the same work as a quiet machine's 60 ms one), so a wall-time
 * limit would follow the machine, not the editor.
 */
import { expect, test, type Page } from '@playwright/test';
import { addUser, clearNetworkAttempts, signIn } from './console.fixtures';
import { openStudio } from './studio.fixtures';

// one test at a time: both edit the same brand's page, and an editor opening it meets the other's saved draft
test.describe.configure({ mode: 'default' });
test.beforeAll(clearNetworkAttempts);

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** The renderers' main-thread tasks of a Chromium trace (the preview iframe is same-origin: the same thread), longest first: [wall ms, CPU ms]. */
function mainThreadTasks(trace: Buffer): [number, number][] {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  return events
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && mains.has(`${e.pid}:${e.tid}`) && e.dur !== undefined && e.tdur !== undefined)
    .map((e): [number, number] => [e.dur! / 1000, e.tdur! / 1000])
    .sort((a, b) => b[1] - a[1]);
}

/** An editor signed in with the largest page of the catalog open (20 blocks); reads the blocks' names in their order. */
async function openLargestPage(page: Page): Promise<() => Promise<(string | null | undefined)[]>> {
  await signIn(page, addUser('editor'));
  await openStudio(page, '/studio/usbadcreditloans');
  await page.getByRole('button', { name: 'Pages', exact: true }).click();
  await page.getByLabel('Page', { exact: true }).selectOption({ label: '/{loanType}/location/{state}' });
  const blocks = page.locator('fieldset[data-pointer="/layouts/ubc-location-state/blocks"] > ol > li');
  await expect(blocks).toHaveCount(20);
  return () => blocks.evaluateAll((lis) => lis.map((li) => li.querySelector('span.font-medium')?.textContent));
}

test('reorder, undo and redo on the largest page leave no main-thread task over 200 ms of CPU', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const names = await openLargestPage(page);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  const before = await names();
  await page.locator(`[id$="-handle-10"]`).first().focus();
  // a key at a time, as an editor watching the block go up presses it: each press lands once the moved handle has the focus again
  for (let i = 1; i <= 5; i++) {
    await page.keyboard.press('ArrowUp');
    await expect(page.locator(`[id$="-handle-${10 - i}"]`).first()).toBeFocused();
  }
  await expect.poll(async () => (await names())[5]).toBe(before[10]);
  for (let i = 0; i < 5; i++) await page.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(names).toEqual(before);
  for (let i = 0; i < 5; i++) await page.getByRole('button', { name: 'Redo' }).click();
  await expect.poll(async () => (await names())[5]).toBe(before[10]);
  const tasks = mainThreadTasks(await browser.stopTracing());
  expect(tasks.length, "the trace holds the main thread's tasks").toBeGreaterThan(0);
  console.log(
    `longest main-thread tasks (ms CPU / wall): ${tasks
      .slice(0, 6)
      .map(([wall, cpu]) => `${Math.round(cpu)}/${Math.round(wall)}`)
      .join(', ')}`,
  );
  expect(tasks[0]![1]).toBeLessThanOrEqual(200);
});

test('arrow keys that come faster than frames move the block one place each, from its new place', async ({ page }) => {
  const names = await openLargestPage(page);
  const before = await names();
  await page.locator(`[id$="-handle-12"]`).first().focus();
  // Key-downs closer together than a frame (a held key on a busy page, a fast typist under load):
  // sent to whatever has the focus, each once the page has handled the one before (its task and
  // React's update done) but without waiting for a frame. Each must land on the moved block's
  // handle; one landing on the block it just passed would move that one back.
  await page.evaluate(async () => {
    for (const key of ['ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowDown']) {
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  });
  // the block from place 12 at place 7, the five it passed one place down, the rest where they were
  const moved = [...before.slice(0, 7), before[12], ...before.slice(7, 12), ...before.slice(13)];
  await expect.poll(names).toEqual(moved);
  await expect(page.locator(`[id$="-handle-7"]`).first()).toBeFocused();
});
