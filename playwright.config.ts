import { defineConfig } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
/** The e2e server's SQLite store (one per port); the tests read stored rows back from it. */
export const E2E_DB_FILE = process.env.E2E_DB_FILE ?? join(tmpdir(), `loansites-e2e-${E2E_PORT}.sqlite`);

/**
 * End-to-end tests against the production build (`npm run build` first), in Debian's
 * Chromium (/usr/bin/chromium; .ci/run installs it). Brands are opened as {id}.localhost,
 * which Chromium resolves to loopback.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    viewport: { width: 1280, height: 900 },
  },
  webServer: {
    // LOANSITES_EXTRA_BRANDS_DIR: the test-only brands of tests/fixtures/brands (a title brand,
    // a general brand) are added for this server only; see engine/catalog.ts extraBrandsDir.
    // LOANSITES_DB_FILE: the store in a temp file, not data/loansites.sqlite.
    command: `LOANSITES_ISR_MEMORY=1 LOANSITES_EXTRA_BRANDS_DIR=tests/fixtures/brands LOANSITES_DB_FILE=${E2E_DB_FILE} DATABASE_URL= PORT=${E2E_PORT} node server.mjs`,
    url: `http://127.0.0.1:${E2E_PORT}/static/ping.txt`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
