/**
 * The consent certificate end to end, on a production server of this spec's own with a stand-in
 * buyer as its only buyer document: a borrower's phone journey ends on a thank-you screen that
 * links the certificate; its page says it is a test lead's (the journey runs on a .localhost host),
 * shows the consent exactly as the form showed it, the three steps and their times (and passes axe); the buyer finds the certificate id in its ping, verifies
 * it and claims it with the lead's phone hash, is refused with another phone's, opens the
 * certificate URL its post carries on this server, and an unknown or
 * guessed id is a 404 — for the buyer API and the page alike.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { freePort } from '../support/ports';
import type { Store } from '../../engine/store/db';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';
import { raw } from './console.fixtures';
import { brandUrl, expectNoAxeViolations } from './helpers';
import { startOwnServer, type OwnServer } from './ownServer.fixtures';
import { fillAndSubmit, uniquePhone } from './sale.fixtures';

/** This spec's own server's port (leased: no spec running beside it is given it). */
let PORT: number;
let HOST: string;
const SECRET = 'certificate-stand-in-buyer-secret-01';
let own: OwnServer;
let buyer: StandInBuyer;
let db: Store;

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });
// one server of its own for the spec: its tests share it, in one worker
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  PORT = await freePort(E2E_PORT + 8);
  HOST = `ipaydayloans.localhost:${PORT}`;
  buyer = await startStandInBuyer('cert-buyer', SECRET, { ping: { bid: 20 } });
  own = await startOwnServer(PORT, { secret: SECRET, buyers: [{ buyer }] });
  db = own.db;
});

test.afterAll(async () => {
  await own?.stop();
  await buyer?.close();
});

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const ask = async (op: 'verify' | 'claim' | 'fetch', body: object) => {
  const text = JSON.stringify(body);
  const r = await raw('POST', `/api/certificates/${op}`, HOST, text, { 'content-type': 'application/json', ...buyer.signed(text) }, undefined, PORT);
  return { status: r.status, json: JSON.parse(r.body) as Record<string, unknown> };
};

test('a phone journey gets a certificate: the page shows the consent as seen, and a buyer verifies and claims it with the phone hash only', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = `cert.${Date.now()}@example.org`;
  const phone = uniquePhone();
  await fillAndSubmit(page, { brand: 'ipaydayloans', path: '/apply', email, phone, port: PORT });

  const link = page.getByRole('link', { name: /Your consent certificate/ });
  await expect(link).toBeVisible({ timeout: 30_000 });
  const href = (await link.getAttribute('href'))!;
  expect(href).toMatch(/^\/certificate\/ct_[A-Za-z0-9_-]{22}$/);
  const certificateId = href.slice('/certificate/'.length);
  const lead = await db.selectFrom('leads').select(['id', 'consent_text', 'certificate_id']).where('email', '=', email).executeTakeFirstOrThrow();
  expect(lead.certificate_id).toBe(certificateId);

  // the borrower's copy: the consent exactly as the form showed it, the steps with their times
  await page.goto(brandUrl('ipaydayloans', href, PORT));
  // posted on a .localhost host: a test lead, and its certificate says so before anything else
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Consent certificate (test lead)');
  await expect(page.getByRole('note')).toHaveText(/^Test lead: this certificate records a submission on a test or development site/);
  await expect(page.getByText('Signature valid')).toBeVisible();
  await expect(page.locator('blockquote')).toHaveText(lead.consent_text);
  for (const step of ['Step 1', 'Step 2', 'Step 3']) await expect(page.getByRole('cell', { name: step, exact: true })).toBeVisible();
  await expect(page.getByText(/Shown at [\d.]+px with a contrast of [\d.]+:1 .*: meets the rules\./)).toBeVisible();
  await expectNoAxeViolations(page);

  // the stand-in buyer got the id in its ping (no personal data) and verifies, claims, fetches
  await expect.poll(() => buyer.pings.find((p) => p.certificateId === certificateId), { timeout: 30_000 }).toBeTruthy();
  const ping = buyer.pings.find((p) => p.certificateId === certificateId)!;
  expect(JSON.stringify(ping)).not.toContain(phone);
  // the post's certificate URL, opened as the lender's engineer is given it, is this server's page
  await expect.poll(() => buyer.posts.some((p) => p.leadId === lead.id), { timeout: 30_000 }).toBe(true);
  const posted = buyer.posts.find((p) => p.leadId === lead.id)!.body.certificate as { id: string; url: string };
  expect(posted).toEqual({ id: certificateId, url: brandUrl('ipaydayloans', href, PORT) });
  await page.goto(posted.url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Consent certificate (test lead)');
  await expect(page.getByText(certificateId, { exact: true })).toBeVisible();

  const verified = await ask('verify', { certificateId, phoneSha256: sha(phone) });
  expect(verified).toMatchObject({ status: 200, json: { valid: true, test: true, phoneMatches: true } });
  expect((await ask('verify', { certificateId, phoneSha256: sha(uniquePhone()) })).json).toMatchObject({ valid: true, phoneMatches: false });
  const refused = await ask('claim', { certificateId, phoneSha256: sha(uniquePhone()) });
  expect(refused.status).toBe(403);
  expect(refused.json.error).toMatch(/phone hash does not match/);
  expect((await ask('claim', { certificateId, phoneSha256: sha(phone) })).json).toMatchObject({ certificateId, buyer: 'cert-buyer' });
  const fetched = await ask('fetch', { certificateId });
  expect(fetched.json.test).toBe(true);
  const certificate = fetched.json.certificate as {
    test: boolean;
    times: { steps: unknown[] };
    fields: Record<string, { typed: number; pasted: number; autofilled: number }>;
    consent: { display: { meetsRules: boolean } };
  };
  expect(certificate.test).toBe(true);
  expect(certificate.times.steps).toHaveLength(3);
  expect(certificate.consent.display.meetsRules).toBe(true);
  expect(Object.keys(certificate.fields)).toEqual(expect.arrayContaining(['zip', 'email', 'phone']));
  expect(JSON.stringify(certificate)).not.toContain(phone);
});

test('an unknown or guessed certificate id is a 404, for the page and the buyer API', async ({ page }) => {
  for (const id of [`ct_${'A'.repeat(22)}`, 'ct_guess', 'ld_1']) {
    const answer = await page.goto(brandUrl('ipaydayloans', `/certificate/${id}`, PORT));
    expect(answer?.status(), id).toBe(404);
  }
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Certificate not found');
  expect((await ask('verify', { certificateId: `ct_${'Z'.repeat(22)}` })).status).toBe(404);
  expect((await ask('claim', { certificateId: `ct_${'Z'.repeat(22)}`, phoneSha256: sha('5125550123') })).status).toBe(404);
});

test('the brand publishes its certificate keys at the well-known address', async () => {
  const r = await raw('GET', '/.well-known/loansites-certificate-keys.json', HOST, '', {}, undefined, PORT);
  expect(r.status).toBe(200);
  const doc = JSON.parse(r.body) as { keys: { kty: string; crv: string; kid: string; status: string }[] };
  expect(doc.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', status: 'current' });
});
