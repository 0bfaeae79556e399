/**
 * One browser tab per Playwright worker, kept from test to test, for the sweeps that only open a
 * page and look at it (title, canonical, headings, axe, tap targets): no cookies, storage, routes,
 * init scripts or listeners of their own. A fresh context per test made Chromium start a renderer
 * and download and compile the engine's scripts again for every page; in one kept tab the HTTP
 * cache and V8's code cache carry over, which is most of the CPU such a sweep used. Each test still
 * navigates afresh and sets its own viewport (test.use({ viewport }) works as usual). Tests that
 * measure a first load (layout shift, what loads when) keep Playwright's own fresh `page`.
 */
import { test as base, type BrowserContext, type Page } from '@playwright/test';

export { expect } from '@playwright/test';

export const test = base.extend<{ page: Page }, { sharedTab: { context: BrowserContext; page: Page } }>({
  sharedTab: [
    async ({ browser }, provide) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await provide({ context, page });
      await context.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ sharedTab, viewport }, provide) => {
    if (viewport) await sharedTab.page.setViewportSize(viewport);
    await provide(sharedTab.page);
  },
});
