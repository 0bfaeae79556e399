/**
 * The suite's axe check itself: every accessibility sweep relies on it, so it must report what a
 * screen-reader or low-vision user would meet, on a page and inside a page's frame.
 */
import { expect, test } from '@playwright/test';
import { axeViolations, expectNoAxeViolations } from './helpers';

const FAULTY_BODY =
  '<main><h1>Loans</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><p style="color:#aaa;background:#fff">Representative example</p></main>';
const page = (body: string) => `<!doctype html><html lang="en"><head><title>Check</title></head><body>${body}</body></html>`;

test('the axe check reports an image without a text alternative and text too faint to read', async ({ page: tab }) => {
  await tab.setContent(page(FAULTY_BODY));
  const ids = (await axeViolations(tab)).map((v) => v.id).sort();
  expect(ids).toEqual(['color-contrast', 'image-alt']);
  await expect(expectNoAxeViolations(tab)).rejects.toThrow(/image-alt: .* — img/);
});

test('the axe check looks inside a frame on the page', async ({ page: tab }) => {
  const inner = page(FAULTY_BODY).replace(/"/g, '&quot;');
  await tab.setContent(page(`<main><h1>Preview</h1><iframe title="Preview" srcdoc="${inner}"></iframe></main>`));
  await expect(tab.frameLocator('iframe').locator('h1')).toHaveText('Loans');
  const ids = (await axeViolations(tab)).map((v) => v.id).sort();
  expect(ids).toEqual(['color-contrast', 'image-alt']);
});

test('the axe check passes a page that has nothing to report', async ({ page: tab }) => {
  await tab.setContent(page('<main><h1>Loans</h1><img alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><p>Representative example</p></main>'));
  expect(await axeViolations(tab)).toEqual([]);
});
