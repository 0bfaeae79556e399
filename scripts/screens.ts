/**
 * Screenshots of every brand's home page on a 390 px phone, for reviewers to see what changed:
 * docs/screens/{brand}-home-390.png, the first three screens (390 × 2532 CSS px, 1×).
 *
 *   npm run build && PORT=3000 node server.mjs &     # a production server
 *   npm run screens                                   # SCREENS_PORT=3000 by default
 *
 * Brands answer on http://{id}.localhost:PORT (Chromium resolves *.localhost to loopback).
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

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

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const context = await browser.newContext({ viewport: { width, height: screenHeight }, deviceScaleFactor: 1, reducedMotion: 'reduce' });
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
