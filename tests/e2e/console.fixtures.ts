/**
 * The console e2e specs' shared steps: accounts made with the real console:user CLI, the
 * e2e server's store, raw requests with any Host header, sign-in by keyboard and the checks every
 * console page must pass (no-store, the script-free CSP, axe, tap targets).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { E2E_DB_FILE } from '../../playwright.config';
import { openStore, type Store } from '../../engine/store/db';
import type { Role } from '../../engine/console/roles';
import { expectNoAxeViolations, PORT } from './helpers';
import { rawRequest } from '../support/rawRequest';
import { smallTapTargets } from './tapTargets';

export const CONSOLE = `http://console.localhost:${PORT}`;
export const CONSOLE_HOST = `console.localhost:${PORT}`;
export const run = randomBytes(4).toString('hex');
export const PASSWORD = 'correct horse battery staple';

/**
 * A console account, made as an operator makes one: the real CLI, the password on standard input.
 * Run with node itself rather than through npm (which only adds a second process start), and with
 * the cheaper hash tests may use: the server checks each password at the cost stored with it, and
 * this suite signs in some eighty times.
 */
let accounts = 0;
export function addUser(role: Role, dbFile = E2E_DB_FILE, databaseUrl = ''): string {
  const email = `${role}-${run}-${++accounts}@example.com`;
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/console-user.ts', 'add', '--email', email, '--role', role, '--password-stdin'], {
    input: PASSWORD,
    env: { ...process.env, LOANSITES_DB_FILE: dbFile, DATABASE_URL: databaseUrl, CONSOLE_SCRYPT_N: '16384' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return email;
}

export async function withStore<T>(work: (db: Store) => Promise<T>): Promise<T> {
  const db = openStore({ url: '', file: E2E_DB_FILE });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

/** Forget the sign-in failures of this machine's network (the lockout test locks it, as it would any network). */
export const clearNetworkAttempts = () => withStore((db) => db.deleteFrom('console_login_attempts').where('key', 'like', 'net:%').execute());

/**
 * A raw request with any Host header (a browser will not send a brand host to the console's paths
 * on purpose), from `localAddress` when given: another loopback address is another client.
 */
export const raw = (method: string, path: string, host: string, body = '', headers: Record<string, string> = {}, localAddress?: string, port = PORT) =>
  rawRequest(port, method, path, host, body, headers, localAddress);

/** Sign in through the form, by keyboard only: the skip link first, then the email, the password, Enter. */
export async function signIn(page: Page, email: string, password = PASSWORD, consoleUrl = CONSOLE) {
  await page.goto(`${consoleUrl}/login`);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(password);
  // the password check is scrypt with 128 MiB (engine/console/passwords.ts): seconds on a busy machine
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/' || (url.pathname === '/login' && url.search !== ''), { timeout: 30_000 }),
    page.keyboard.press('Enter'),
  ]);
}

/** The page's answer carries no-store and the console's script-free policy; axe finds nothing; every target is at least 24 px. */
export async function checkPage(page: Page, path: string, heading: string | RegExp, status = 200, consoleUrl = CONSOLE) {
  const res = await page.goto(`${consoleUrl}${path}`);
  expect(res?.status(), path).toBe(status);
  const h = res!.headers();
  expect(h['cache-control']).toContain('no-store');
  expect(h['content-security-policy']).toContain("script-src 'none'");
  expect(h['content-security-policy']).not.toContain('unsafe-inline');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  expect(await page.locator('script:not([type="application/json"]):not([type="application/ld+json"])').count(), `${path} runs no script`).toBe(0);
  await expectNoAxeViolations(page);
  expect(await smallTapTargets(page, 24)).toEqual([]);
}
