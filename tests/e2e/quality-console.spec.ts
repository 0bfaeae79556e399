/**
 * Lead quality end to end, in Chromium, on a production server of this spec's own with two stand-in
 * buyers — one asking a minimum quality score of 95, one of 10 — and a brand that offers every
 * lead (tests/fixtures/quality-brands/acmeopen.json, threshold 0):
 * - a scripted instant fill scores low: the buyer asking 95 is not pinged (its timeline entry says
 *   why), the one asking 10 is;
 * - on a brand that holds low scores for review (ipaydayloans), an operator on a phone finds the
 *   held lead on the console's quality page (its borrower told the request is being checked), sees
 *   its score and reasons on its page, and releases it: it is offered to buyers once — the lenient buyer pinged once, the strict one never —
 *   and the release is in the audit log; the borrower's page, reloaded while the request was
 *   checked, shows the lender that bought it without another reload; the pages run no script and pass axe at 390 px; a forged
 *   release and a viewer's are refused.
 */
import { expect, test, type BrowserContext } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { freePort } from '../support/ports';
import type { Store } from '../../engine/store/db';
import { timelineOf } from '../../engine/store/sales';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';
import { addUser, checkPage, raw, signIn } from './console.fixtures';
import { brandUrl } from './helpers';
import { startOwnServer, type OwnServer } from './ownServer.fixtures';
import { scriptedInstantFill } from './sale.fixtures';

/** This spec's own server's port (leased: no spec running beside it is given it). */
let PORT: number;
let CONSOLE: string;
const SECRET = 'quality-console-buyer-secret-01';
let own: OwnServer;
let strict: StandInBuyer;
let lenient: StandInBuyer;
let db: Store;

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  PORT = await freePort(E2E_PORT + 4);
  CONSOLE = `http://console.localhost:${PORT}`;
  strict = await startStandInBuyer('strict', SECRET, { ping: { bid: 40 }, post: 'refuse' });
  lenient = await startStandInBuyer('lenient', SECRET, { ping: { bid: 15 }, post: 'refuse' });
  own = await startOwnServer(PORT, {
    secret: SECRET,
    buyers: [
      { buyer: strict, document: { minQualityScore: 95 } },
      { buyer: lenient, document: { minQualityScore: 10 } },
    ],
    env: { LOANSITES_EXTRA_BRANDS_DIR: 'tests/fixtures/quality-brands' },
  });
  db = own.db;
});

test.afterEach(() => {
  lenient.post = 'refuse';
});

test.afterAll(async () => {
  await own?.stop();
  await strict?.close();
  await lenient?.close();
});

const uniqueEmail = (name: string) => `${name}.${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
const leadOf = (email: string) => db.selectFrom('leads').select(['id', 'certificate_id']).where('email', '=', email).executeTakeFirst();
const pingsFor = (buyer: StandInBuyer, certificateId: string) => buyer.pings.filter((p) => p.certificateId === certificateId).length;
/** A form post to the console's review as this browser context would send it (its session cookie), with any CSRF token. */
async function review(context: BrowserContext, lead: string, decision: string, csrf: string) {
  const cookie = (await context.cookies(CONSOLE)).map((c) => `${c.name}=${c.value}`).join('; ');
  const body = new URLSearchParams({ lead, decision, csrf }).toString();
  return raw(
    'POST',
    '/api/console/review',
    `console.localhost:${PORT}`,
    body,
    { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    undefined,
    PORT,
  );
}
const saleStatus = async (leadId: string) => (await db.selectFrom('lead_sales').select('status').where('lead_id', '=', leadId).executeTakeFirst())?.status;

test('minQualityScore: a low-score lead is offered to the buyer asking 10, not to the one asking 95', async ({ page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('minimum');
  await scriptedInstantFill(page, brandUrl('acmeopen', '/apply', PORT), email);
  await expect.poll(async () => (await leadOf(email))?.id, { timeout: 30_000 }).toBeTruthy();
  const lead = (await leadOf(email))!;
  // no sale row yet (its request is still screening the lead) is not a final status either
  await expect.poll(async () => (await saleStatus(lead.id)) ?? 'pending', { timeout: 45_000 }).not.toBe('pending');
  const screening = await db.selectFrom('lead_screening').selectAll().where('lead_id', '=', lead.id).executeTakeFirstOrThrow();
  expect(screening.score).toBeLessThan(95);
  expect(screening.score).toBeGreaterThanOrEqual(10);
  // on a failure, what the sale did and what the buyer got say why
  const why = async () =>
    JSON.stringify({ timeline: await timelineOf(db, lead.id), lenientPings: lenient.pings.length, log: own.server.log().slice(-1500) }, null, 1);
  expect(pingsFor(lenient, lead.certificate_id!), await why()).toBe(1);
  expect(pingsFor(strict, lead.certificate_id!)).toBe(0);
  const skipped = await db.selectFrom('sale_events').select('detail').where('lead_id', '=', lead.id).where('buyer_id', '=', 'strict').executeTakeFirst();
  expect(skipped?.detail).toBe(`quality score ${screening.score} under its minimum 95`);
});

test("an operator sees a held lead's score and reasons and releases it: offered once, audited", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('held');
  await scriptedInstantFill(page, brandUrl('ipaydayloans', '/apply', PORT), email);
  // the borrower is told the request is being checked (it may still go to lenders), never why, with the page's usual links
  await expect(page.getByRole('heading', { name: "We're checking your request" })).toBeVisible({ timeout: 45_000 });
  await expect(page.getByText('Your request needs a short check by our team before it goes to lenders.', { exact: false })).toBeVisible();
  await expect(page.locator('[data-sale-state="review"]')).not.toContainText(/not sold|No lender right now|bot|score|screening/i);
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Changed your mind\?/ })).toBeVisible();
  await expect(page.locator('[aria-live="polite"]', { hasText: "We're checking your request" })).toHaveCount(1);
  // a borrower who reloads while the request is checked sees where it stands again, not an empty form
  await page.reload();
  await expect(page.getByRole('heading', { name: "We're checking your request" })).toBeVisible();
  await expect(page.getByText('Keep this page open to see the result here as soon as the check is done')).toBeVisible();
  const lead = (await leadOf(email))!;
  await expect.poll(() => saleStatus(lead.id), { timeout: 30_000 }).toBe('unsold');
  expect(pingsFor(lenient, lead.certificate_id!)).toBe(0);

  const admin = addUser('admin', own.dbFile);
  const operator = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const ops = await operator.newPage();
  await signIn(ops, admin, undefined, CONSOLE);
  await checkPage(ops, '/quality', 'Lead quality', 200, CONSOLE);
  const held = ops.getByRole('region', { name: /^Held for review/ });
  await held.getByRole('link', { name: lead.id }).click();
  await expect(ops.getByRole('heading', { level: 1 })).toHaveText(`Lead ${lead.id}`);
  const screening = ops.getByRole('region', { name: 'Screening' });
  await expect(screening).toContainText(/Quality score\s*\d+ \(low\)/);
  await expect(screening).toContainText('bot-paste-all');
  await expect(screening).toContainText('held for review');
  // the lead's consent certificate: it verifies, its page is on the brand's host, no buyer holds it yet
  const certificate = ops.getByRole('region', { name: 'Consent certificate' });
  await expect(certificate).toContainText(lead.certificate_id!);
  await expect(certificate).toContainText(/Signature\s*verifies/);
  await expect(certificate).toContainText(`/certificate/${lead.certificate_id}`);
  await expect(certificate).toContainText(/Claimed by\s*no buyer yet/);
  await checkPage(ops, `/leads/${lead.id}`, `Lead ${lead.id}`, 200, CONSOLE);

  // a forged release (no session's CSRF token) changes nothing
  const forged = await review(operator, lead.id, 'release', 'forged');
  expect(forged.status).toBe(403);
  expect(await saleStatus(lead.id)).toBe('unsold');

  // (a release long after the lead's arrival, past the borrower's 40 s, is offered all the same:
  // tests/unit/quality-review.test.ts, on both stores, without waiting out the clock here)
  // this time the lenient buyer buys what it bids on
  lenient.post = 'accept';
  await ops.getByRole('button', { name: 'Release for sale' }).click();
  await expect(ops.getByRole('status')).toHaveText(
    'Released: the lead’s sale starts now and offers it once to the buyers, as any lead’s (their filters, schedules, caps and minimum scores apply), within 40 s of its start. Unsold, it goes to the deliver buyers that take it.',
  );
  await expect(ops.getByRole('button', { name: 'Release for sale' })).toHaveCount(0);
  await expect.poll(() => pingsFor(lenient, lead.certificate_id!), { timeout: 45_000 }).toBe(1);
  await expect.poll(() => saleStatus(lead.id), { timeout: 45_000 }).toBe('sold');
  expect(pingsFor(strict, lead.certificate_id!)).toBe(0);
  // the borrower's page, still open, shows the lender as any sale's result: named, with its link
  await expect(page.getByRole('heading', { name: "You're matched with Stand-in lenient" })).toBeVisible({ timeout: 45_000 });
  await page.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page.getByRole('link', { name: 'Continue to Stand-in lenient' })).toHaveAttribute('href', /^https:\/\/lenient\.lender\.example\/offer\//);

  // the same release again (a reload that posts twice): not held any more, never offered twice
  const again = await review(operator, lead.id, 'release', (await ops.locator('input[name="csrf"]').first().getAttribute('value'))!);
  expect(again.status).toBe(303);
  expect(again.headers.location).toBe(`/leads/${lead.id}?review=not-held`);
  expect(pingsFor(lenient, lead.certificate_id!)).toBe(1);
  await checkPage(ops, '/audit', 'Audit log', 200, CONSOLE);
  await expect(ops.getByRole('table').first()).toContainText('lead_released');
  await operator.close();

  // a viewer may not review
  const viewer = await browser.newContext();
  const viewerPage = await viewer.newPage();
  await signIn(viewerPage, addUser('viewer', own.dbFile), undefined, CONSOLE);
  const refused = await review(viewer, lead.id, 'reject', 'x');
  expect(refused.status).toBe(403);
  await viewer.close();
});
