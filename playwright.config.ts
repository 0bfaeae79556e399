import { defineConfig } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/support/chromium';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
/** The e2e server's SQLite store (one per port); the tests read stored rows back from it. */
export const E2E_DB_FILE = process.env.E2E_DB_FILE ?? join(tmpdir(), `loansites-e2e-${E2E_PORT}.sqlite`);
/** The lead buyer the e2e server delivers ipaydayloans' and ustitleloans' leads to; a test starts it (tests/support/buyer.ts). */
export const E2E_BUYER_PORT = E2E_PORT + 1000;
export const E2E_BUYER_SECRET = 'e2e-buyer-shared-secret';
/** The alert webhook the e2e server sends to; a test starts a receiver there (tests/support/webhookReceiver.ts). */
export const E2E_ALERT_PORT = E2E_PORT + 1002;
export const E2E_ALERT_SECRET = 'e2e-alert-webhook-secret';

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
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, '--disable-quic'],
    },
    viewport: { width: 1280, height: 900 },
  },
  webServer: {
    // LOANSITES_EXTRA_BRANDS_DIR: the test-only brands of tests/fixtures/brands (a title brand,
    // a general brand) are added for this server only; see engine/site/catalog.ts extraBrandsDir.
    // LOANSITES_DB_FILE: the store in a temp file, not data/loansites.sqlite.
    // LEAD_DESTINATIONS: two brands deliver to the test buyer; the worker polls every 500 ms.
    // Every test browser posts from 127.0.0.1, so the per-client write limits are raised.
    command: `node server.mjs`,
    env: {
      PORT: String(E2E_PORT),
      LOANSITES_EXTRA_BRANDS_DIR: 'tests/fixtures/brands',
      LOANSITES_DB_FILE: E2E_DB_FILE,
      DATABASE_URL: '',
      LEAD_DESTINATIONS: JSON.stringify(
        Object.fromEntries(
          ['ipaydayloans', 'ustitleloans'].map((id) => [
            id,
            // the tests post on *.localhost hosts, whose leads are test leads: this buyer takes them
            [{ name: 'e2e-buyer', url: `http://127.0.0.1:${E2E_BUYER_PORT}/leads`, secret: E2E_BUYER_SECRET, timeoutMs: 2000, acceptsTestLeads: true }],
          ]),
        ),
      ),
      LEADS_WORKER_INTERVAL_MS: '500',
      RATE_LIMIT_LEADS: '1000',
      RATE_LIMIT_FORM_TRACE: '1000',
      RATE_LIMIT_SITEMAP: '1000',
      // A visit's first funnel batch is a keepalive fetch (its answer carries the visit id); past the
      // per-client limit every page asks again, and a keepalive fetch cut by the next navigation
      // never finishes in Playwright's eyes, so waits for 'networkidle' would hang.
      RATE_LIMIT_EVENTS: '100000',
      EVENTS_PER_CLIENT_PER_MINUTE: '100000',
      // Alert rules are checked every second and sent to a receiver a test starts.
      ALERT_CHECK_MS: '1000',
      ALERT_WEBHOOK_URL: `http://127.0.0.1:${E2E_ALERT_PORT}/hook`,
      ALERT_WEBHOOK_SECRET: E2E_ALERT_SECRET,
    },
    url: `http://127.0.0.1:${E2E_PORT}/static/ping.txt`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
