/**
 * Screenshots of every brand's home page on a 390 px phone, for reviewers to see what changed:
 * docs/screens/{brand}-home-390.png, the first three screens (390 × 2532 CSS px, 1×) — and the
 * operator console's overview of the last 30 days, signed in (docs/screens/console-overview.png,
 * shown in docs/operators/console.md; fill the store with `npm run demo:traffic` first).
 *
 *   npm run build && PORT=3000 node server.mjs &     # a production server
 *   npm run screens                                   # SCREENS_PORT=3000 by default
 *   npm run screens -- console                        # the console's overview only
 *
 * Brands answer on http://{id}.localhost:PORT, the console on http://console.localhost:PORT
 * (Chromium resolves *.localhost to loopback). For the console a throwaway admin is added to the
 * store the server uses (the same LOANSITES_DB_FILE / DATABASE_URL), signs in, and is removed.
 */
import './check-node.cjs';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { hashPassword } from '../engine/console/passwords';
import { addUser, removeUser } from '../engine/store/console';
import { closeStore, getStore } from '../engine/store/db';

const port = Number(process.env.SCREENS_PORT ?? process.env.PORT ?? 3000);
const width = 390;
const screenHeight = 844;
const screens = 3;
const outDir = join(process.cwd(), 'docs/screens');
const brands = readdirSync(join(process.cwd(), 'brands'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .filter((id) => !process.argv[2] || process.argv.slice(2).includes(id))
  .sort();
const wantsConsole = !process.argv[2] || process.argv.slice(2).includes('console');

/** The console's overview of the last 30 days (UTC), signed in as a throwaway admin, 1280 px wide. */
async function consoleOverview(browser: Browser) {
  const db = await getStore();
  const email = `screens-${randomBytes(4).toString('hex')}@localhost.invalid`;
  const password = randomBytes(18).toString('base64url');
  await addUser(db, { email, role: 'admin', passwordHash: await hashPassword(password) });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const base = `http://console.localhost:${port}`;
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await Promise.all([page.waitForURL(`${base}/`, { timeout: 60_000 }), page.getByLabel('Password').press('Enter')]);
    const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
    const res = await page.goto(`${base}/?from=${day(29)}&to=${day(0)}`, { waitUntil: 'load' });
    if (!res?.ok()) throw new Error(`console overview answered ${res?.status()}`);
    const file = join(outDir, 'console-overview.png');
    await page.screenshot({ path: file, fullPage: false, animations: 'disabled' });
    console.log(`screens: ${file}`);
    await context.close();
  } finally {
    await removeUser(db, email);
    await closeStore();
  }
}

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const context = await browser.newContext({ viewport: { width, height: screenHeight }, deviceScaleFactor: 1, reducedMotion: 'reduce' });
  if (wantsConsole) await consoleOverview(browser);
  for (const id of brands) {
    const page = await context.newPage();
    const res = await page.goto(`http://${id}.localhost:${port}/`, { waitUntil: 'networkidle' });
    if (!res?.ok()) throw new Error(`${id}: home page answered ${res?.status()}`);
    const full = await page.evaluate(() => document.documentElement.scrollHeight);
    const file = join(outDir, `${id}-home-${width}.png`);
    await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: 0, width, height: Math.min(full, screens * screenHeight) }, animations: 'disabled' });
    console.log(`screens: ${file} (page ${(full / screenHeight).toFixed(1)} screens tall)`);
    await page.close();
  }
} finally {
  await browser.close();
}
