/**
 * Acting on a buyer from the console, on a production server of its own (one stand-in buyer as a
 * buyer document, so pausing it touches no other spec's sales): an admin pauses it and the next
 * borrower's lead is not offered to it, then resumes it and the next one is; a cap the schema
 * refuses is shown with `npm run validate`'s message at its field; an analyst sees the buyer's
 * record but no form, and a post made anyway is refused (403), as is one without the CSRF token.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { freePort } from '../support/ports';
import { openStore, type Store } from '../../engine/store/db';
import { startInstance, type Instance } from '../support/instances';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';
import { addUser, checkPage, raw, signIn } from './console.fixtures';
import { fillAndSubmit } from './sale.fixtures';

/** This spec's own server (its buyer is paused and resumed, which must not reach other specs' sales), on a leased port. */
let PORT: number;
let CONSOLE_URL: string;
const SECRET = 'console-buyers-stand-in-secret-01';
const BUYER = 'pause-me';
const dir = mkdtempSync(join(tmpdir(), 'loansites-console-buyers-'));
const DB_FILE = join(dir, 'store.sqlite');

let server: Instance;
let buyer: StandInBuyer;
let db: Store;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  PORT = await freePort(E2E_PORT + 7);
  CONSOLE_URL = `http://console.localhost:${PORT}`;
  buyer = await startStandInBuyer(BUYER, SECRET, { ping: { bid: 20 } });
  mkdirSync(join(dir, 'buyers'));
  writeFileSync(
    join(dir, 'buyers', `${BUYER}.json`),
    JSON.stringify(buyer.document({ acceptsTestLeads: true, acceptsDuplicates: true, caps: { perDay: 500 } })),
  );
  server = await startInstance(PORT, {
    LOANSITES_DB_FILE: DB_FILE,
    DATABASE_URL: '',
    LOANSITES_BUYERS_DIR: join(dir, 'buyers'),
    BUYER_PAUSE_ME_SECRET: SECRET,
    LEAD_DESTINATIONS: '',
    RATE_LIMIT_LEADS: '1000',
    RATE_LIMIT_FORM_TRACE: '1000',
  });
  db = openStore({ url: '', file: DB_FILE });
});

test.afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await buyer?.close();
  rmSync(dir, { recursive: true, force: true });
});

const saleOf = async (email: string) => {
  const lead = await db.selectFrom('leads').select('id').where('email', '=', email).executeTakeFirst();
  return lead && (await db.selectFrom('lead_sales').select(['status', 'buyer_id']).where('lead_id', '=', lead.id).executeTakeFirst());
};

/** A borrower applies on ipaydayloans; the sale's outcome for their lead once decided. */
async function apply(page: Page, email: string) {
  await fillAndSubmit(page, { brand: 'ipaydayloans', path: '/apply', email, port: PORT });
  await expect.poll(async () => (await saleOf(email))?.status ?? 'pending', { timeout: 60_000 }).not.toBe('pending');
  return saleOf(email);
}

/** A form post made outside the page (as a forger would), with the signed-in browser's cookie. */
async function postAs(page: Page, form: Record<string, string>) {
  const cookie = (await page.context().cookies(CONSOLE_URL)).map((c) => `${c.name}=${c.value}`).join('; ');
  const body = new URLSearchParams(form).toString();
  return raw('POST', `/buyers/${BUYER}`, `console.localhost:${PORT}`, body, { cookie, 'content-type': 'application/x-www-form-urlencoded' }, undefined, PORT);
}

async function setStatus(page: Page, label: 'Active: offered leads' | 'Paused: offered nothing') {
  await page.goto(`${CONSOLE_URL}/buyers/${BUYER}`);
  await page.getByRole('radio', { name: label }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toContainText(/Saved as version \d+/);
}

test('an admin pauses a buyer: the next lead is not offered to it; resumed, the next one is sold to it', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const admin = addUser('admin', DB_FILE);
  await signIn(page, admin, undefined, CONSOLE_URL);
  await page.goto(`${CONSOLE_URL}/buyers`);
  await page.getByRole('link', { name: `Stand-in ${BUYER}` }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(BUYER);

  await setStatus(page, 'Paused: offered nothing');
  await expect(page.getByText('Paused.', { exact: false })).toBeVisible();
  const pingsBefore = buyer.pings.length;
  const borrower = await browser.newPage();
  expect(await apply(borrower, `paused.${Date.now()}@example.org`)).toMatchObject({ status: 'unsold', buyer_id: null });
  expect(buyer.pings.length).toBe(pingsBefore);

  await setStatus(page, 'Active: offered leads');
  expect(await apply(borrower, `resumed.${Date.now()}@example.org`)).toMatchObject({ status: 'sold', buyer_id: BUYER });
  expect(buyer.pings.length).toBeGreaterThan(pingsBefore);

  // both changes are in the audit log with what they changed
  const audits = await db.selectFrom('console_audit').select(['actor', 'detail']).where('target', '=', `buyer:${BUYER}`).orderBy('at').execute();
  expect(audits.map((a) => [a.actor, (JSON.parse(a.detail) as { after: { enabled: boolean } }).after.enabled])).toEqual([
    [admin, false],
    [admin, true],
  ]);
  await borrower.close();
});

test('a cap the schema refuses: nothing is saved and the validator’s message is at the field and on top', async ({ page }) => {
  await signIn(page, addUser('admin', DB_FILE), undefined, CONSOLE_URL);
  await page.goto(`${CONSOLE_URL}/buyers/${BUYER}`);
  await page.getByLabel('Leads per day').fill('-3');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toContainText('/caps/perDay: must be at least 0');
  const field = page.getByLabel('Leads per day');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveValue('-3');
  await expect(page.locator('#capsPerDay-error')).toHaveText('must be at least 0');
  await expect(field).toHaveAccessibleDescription(/must be at least 0/);
});

test('an analyst sees the buyer’s record but no form; a post made anyway, or one without the CSRF token, is refused', async ({ page, browser }) => {
  await signIn(page, addUser('analyst', DB_FILE), undefined, CONSOLE_URL);
  await page.goto(`${CONSOLE_URL}/buyers/${BUYER}`);
  await expect(page.getByRole('table', { name: 'Daily trend' })).toBeVisible();
  await expect(page.getByText(/Response time: p50/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  const revisions = () => db.selectFrom('document_revisions').select('version').where('key', '=', BUYER).execute();
  const before = (await revisions()).length;
  const csrf = await page.locator('input[name="csrf"]').first().inputValue();
  const forged = await postAs(page, { csrf, version: '0', status: 'paused' });
  expect(forged.status).toBe(403);
  expect(forged.body).toContain('may not change buyers');

  const adminPage = await browser.newPage();
  await signIn(adminPage, addUser('admin', DB_FILE), undefined, CONSOLE_URL);
  const noToken = await postAs(adminPage, { version: '0', status: 'paused' });
  expect(noToken.status).toBe(403);
  const adminCsrf = await adminPage.locator('input[name="csrf"]').first().inputValue();
  const secret = await postAs(adminPage, { csrf: adminCsrf, version: '0', status: 'paused', secretEnv: 'STOLEN' });
  expect(secret.status).toBe(400);
  expect(secret.body).toContain('never in the console');
  // nothing of the three took effect
  expect(await revisions()).toHaveLength(before);
  await adminPage.close();
});

test('the buyer page: no-store, no script, no axe violation, targets of 24 px or more', async ({ page }) => {
  const manager = addUser('buyer-manager', DB_FILE);
  await signIn(page, manager, undefined, CONSOLE_URL);
  await checkPage(page, `/buyers/${BUYER}`, /pause-me/, 200, CONSOLE_URL);
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
});
