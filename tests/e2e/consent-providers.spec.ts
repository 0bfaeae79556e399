/**
 * TrustedForm and Jornaya LeadiD per brand, in Chromium, on a production server of this spec's own
 * with local stand-ins for both services and one stand-in buyer: on the TrustedForm brand's apply
 * page the provider's script runs (allowed by that page's policy, and by no other page's), writes
 * its certificate URL into the form, and the buyer gets that URL in the ping and the post; the
 * Jornaya brand's token likewise. The lead's own certificate records the SHA-256 of the form
 * page's HTML exactly as the browser got it.
 */
import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { freePort } from '../support/ports';
import type { Store } from '../../engine/store/db';
import { readCertificate } from '../../engine/leads/certificate/issue';
import { startConsentProviderStandIns, type ConsentProviderStandIns } from '../support/consentProviderStandIns';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';
import { raw } from './console.fixtures';
import { brandUrl } from './helpers';
import { startOwnServer, type OwnServer } from './ownServer.fixtures';
import { contactAndIncome, uniquePhone } from './sale.fixtures';

/** This spec's own server's port (leased: no spec running beside it is given it). */
let PORT: number;
const SECRET = 'consent-provider-buyer-secret-01';
let own: OwnServer;
let providers: ConsentProviderStandIns;
let buyer: StandInBuyer;
let db: Store;

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  PORT = await freePort(E2E_PORT + 3);
  providers = await startConsentProviderStandIns(E2E_PORT + 1001);
  buyer = await startStandInBuyer('provider-buyer', SECRET, { ping: { bid: 20 }, post: 'accept' });
  own = await startOwnServer(PORT, {
    secret: SECRET,
    buyers: [{ buyer }],
    env: { LOANSITES_EXTRA_BRANDS_DIR: 'tests/fixtures/quality-brands', ...providers.env },
  });
  db = own.db;
});

test.afterAll(async () => {
  await own?.stop();
  await buyer?.close();
  await providers?.close();
});

const leadOf = (email: string) => db.selectFrom('leads').selectAll().where('email', '=', email).executeTakeFirst();
const uniqueEmail = (name: string) => `${name}.${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
/** A borrower's journey on the brand's apply page, once the provider's script has written its field (as it has long before a person reaches the submit button). */
async function apply(page: Page, brand: string, email: string, field: string) {
  await page.goto(brandUrl(brand, '/apply', PORT));
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
  await expect(page.locator(field).first()).toHaveValue(/.+/);
  await page.getByLabel('ZIP code').fill('78701');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.locator('h3[tabindex="-1"]')).toContainText('Step 2 of 3');
  await contactAndIncome(page, email, uniquePhone());
  await page.getByRole('button', { name: 'Submit my request' }).click();
}
const scriptSrc = (csp: string) => csp.split('; ').find((d) => d.startsWith('script-src ')) ?? '';

test("TrustedForm's script runs on that brand's apply page only; its certificate reaches the buyer; our certificate hashes the page as served", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // the policies: the stand-in's origin on this brand's apply page, on no other page
  const cspAt = async (brand: string, path: string) =>
    String((await raw('GET', path, `${brand}.localhost:${PORT}`, '', {}, undefined, PORT)).headers['content-security-policy'] ?? '');
  expect(scriptSrc(await cspAt('acmetrusted', '/'))).not.toContain(providers.origin);
  expect(scriptSrc(await cspAt('acmeopen', '/apply'))).not.toContain(providers.origin);

  const email = uniqueEmail('trusted');
  const served = page.waitForResponse((r) => new URL(r.url()).pathname === '/apply' && r.request().resourceType() === 'document');
  await apply(page, 'acmetrusted', email, 'input[name="xxTrustedFormCertUrl"]');
  const applyPage = await served;
  expect(scriptSrc(applyPage.headers()['content-security-policy'] ?? '')).toContain(providers.origin);
  await expect(page.getByRole('link', { name: /Your consent certificate/ })).toBeVisible({ timeout: 45_000 });

  // the stand-in issued one certificate to this page, and the buyer got that very URL
  expect(providers.certificates.length).toBeGreaterThanOrEqual(1);
  const lead = await leadOf(email);
  expect(providers.certificates).toContain(lead!.consent_provider_id);
  await expect
    .poll(() => buyer.pings.find((p) => p.certificateId === lead!.certificate_id)?.trustedFormCertUrl, { timeout: 30_000 })
    .toBe(lead!.consent_provider_id);
  await expect.poll(() => buyer.posts.find((p) => p.leadId === lead!.id)?.body.trustedFormCertUrl, { timeout: 30_000 }).toBe(lead!.consent_provider_id);

  // our own certificate: the SHA-256 of the page's HTML as this browser got it
  const certificate = (await readCertificate(db, lead!.certificate_id!, new Date()))!.signed.certificate;
  expect(certificate.page.htmlSha256).toBe(
    createHash('sha256')
      .update(await applyPage.body())
      .digest('hex'),
  );
});

test("Jornaya's token is captured on its brand's form and reaches the buyer", async ({ page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('jornaya');
  await apply(page, 'acmejornaya', email, '#leadid_token');
  await expect(page.getByRole('link', { name: /Your consent certificate/ })).toBeVisible({ timeout: 45_000 });
  const lead = await leadOf(email);
  const issued = providers.tokens.find((t) => t.token === lead!.consent_provider_id);
  expect(issued?.campaign).toBe('1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809');
  await expect.poll(() => buyer.pings.find((p) => p.certificateId === lead!.certificate_id)?.jornayaLeadId, { timeout: 30_000 }).toBe(issued!.token);
});
