import { test } from '@playwright/test';
import { addUser, CONSOLE, signIn } from './console.fixtures';
test('debug', async ({ page }) => {
  page.on('console', (m) => console.log('CONSOLE', m.type(), m.text().slice(0, 300)));
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message.slice(0, 300)));
  page.on('requestfailed', (r) => console.log('FAILED', r.url()));
  page.on('response', (r) => { if (r.status() >= 400) console.log('STATUS', r.status(), r.url()); });
  await signIn(page, addUser('editor'));
  const res = await page.goto(`${CONSOLE}/studio/acmeonline`);
  console.log('CSP', res?.headers()['content-security-policy']);
  const html = await res!.text();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]{0,200})/g)) console.log('SCRIPT', m[1], m[2].slice(0, 150));
  for (const m of html.matchAll(/<link\b[^>]*after-paint[^>]*>/g)) console.log('LINK', m[0]);
  await page.waitForTimeout(3000);
  console.log('HYD', await page.evaluate(() => Object.keys(window).filter((k) => k.startsWith('__N') || k.includes('TURBO')).join(',')));
});
