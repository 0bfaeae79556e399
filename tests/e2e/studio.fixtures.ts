/** The studio e2e specs' shared steps: a studio page opened once its script runs, and the studio's API called as the signed-in page. */
import { expect, type Page } from '@playwright/test';
import { CONSOLE, CONSOLE_HOST, raw } from './console.fixtures';

/** Opens a studio page and waits until its editor works (its script has run). */
export async function openStudio(page: Page, path: string) {
  await page.goto(`${CONSOLE}${path}`);
  await expect(page.locator('[data-studio-ready]').first()).toBeAttached({ timeout: 30_000 });
}

/** A request to the console with the page's session cookie (Node cannot resolve console.localhost; this sends its Host header). */
export async function asPage(page: Page, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const cookie = (await page.context().cookies(CONSOLE)).map((c) => `${c.name}=${c.value}`).join('; ');
  const json = body === undefined ? '' : JSON.stringify(body);
  const res = await raw(method, path, CONSOLE_HOST, json, {
    cookie,
    ...(json
      ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(json)), origin: CONSOLE, 'sec-fetch-site': 'same-origin' }
      : {}),
    ...headers,
  });
  return { ...res, json: () => JSON.parse(res.body) as Record<string, unknown> };
}

/** The studio API's CSRF token for the page's session. */
export const csrfOf = async (page: Page) => String((await asPage(page, 'GET', '/api/console/studio/brands')).json().csrf);
