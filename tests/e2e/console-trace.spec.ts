/**
 * A lead's form trace in the console: opened on demand by an admin (decrypted then, shown as the
 * trace holds it: the request the apply form posted and the answer it got), each opening in the
 * audit log; an analyst sees no link to it and is refused the direct URL (403).
 */
import { expect, test } from '@playwright/test';
import { newId, recordFormTrace } from '../../engine/store/leads';
import { leadRow } from '../support/leadRow';
import { addUser, checkPage, clearNetworkAttempts, run, signIn, withStore } from './console.fixtures';

const leadId = newId('ld');
const otherLeadId = newId('ld');
const email = `ana-${run}@example.org`;
const marker = `tracecampaign-${run}`;
const openLink = (page: import('@playwright/test').Page) => page.getByRole('link', { name: /Open the form trace/ });
// as a lead stored before names were checked for direction characters, and any trace a client posts, may hold:
// shown raw, the right-to-left override turns "gnp.exe" and what follows on its line around
const reversingName = '\u202egnp.exe';

// Fully parallel: a worker that runs both tests runs this hook before each, in the same module
// (the same ids); the leads are stored once.
let stored = false;
test.beforeAll(async () => {
  await clearNetworkAttempts();
  if (stored) return;
  stored = true;
  const now = new Date();
  const trace = (id: string, mail: string) =>
    JSON.stringify({
      clientId: '',
      type: 'installment',
      request: {
        url: `http://ipaydayloans.localhost/api/leads?utm_campaign=${marker}`,
        search: { utm_campaign: marker },
        body: { contact: { firstName: reversingName, email: mail }, amount: 1000 },
      },
      response: { status: 201, body: { id, status: 'received' } },
    });
  await withStore(async (db) => {
    await db
      .insertInto('leads')
      // a right-to-left source beside a sub-id of digits: the page it is on is checked by axe too
      .values({ id: leadId, ...leadRow({ email, first_name: reversingName, source: 'مصدر', source2: '12', created_at: now.toISOString() }) })
      .execute();
    await db
      .insertInto('leads')
      .values({ id: otherLeadId, ...leadRow({ email: `other-${email}`, created_at: now.toISOString() }) })
      .execute();
    // another lead's trace, stored in the same minute: not this lead's to show
    for (const [id, mail] of [
      [otherLeadId, `other-${email}`],
      [leadId, email],
    ] as const)
      await recordFormTrace(db, { brand: 'ipaydayloans', client_id: '', type: 'installment', trace: trace(id, mail), ip: '', created_at: now.toISOString() });
  });
});

test('an admin opens a lead’s form trace on demand: the posted request and the answer, decrypted, and the opening is in the audit log', async ({ page }) => {
  test.setTimeout(240_000);
  const admin = addUser('admin');
  await signIn(page, admin);
  await checkPage(page, `/leads/${leadId}`, `Lead ${leadId}`);
  // nothing of the trace is on the page, nor opened, until asked for
  await expect(page.getByText(marker)).toHaveCount(0);
  await openLink(page).focus();
  await Promise.all([page.waitForURL(/\?trace=open#form-trace$/), page.keyboard.press('Enter')]);
  const section = page.getByRole('region', { name: 'Form trace' });
  await expect(section.getByRole('region', { name: '1. The form’s request' })).toContainText(`http://ipaydayloans.localhost/api/leads?utm_campaign=${marker}`);
  await expect(section.getByText(`"email": "${email}"`)).toBeVisible();
  await expect(section.getByRole('region', { name: '2. The answer' })).toContainText('201');
  await expect(section.getByText(`"id": "${leadId}"`)).toBeVisible();
  await expect(section.getByText(otherLeadId)).toHaveCount(0);
  // what was stored, as characters an operator can see, in the trace as in the lead's facts: nothing on the page reads reversed
  await expect(section.getByText('"firstName": "\\u202egnp.exe"')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Person' }).getByRole('definition').first()).toHaveText(/^\\u202egnp\.exe /);
  expect(await page.locator('main').innerText()).not.toContain('\u202e');
  await checkPage(page, `/leads/${leadId}?trace=open`, `Lead ${leadId}`);

  const openings = await withStore((db) =>
    db.selectFrom('console_audit').select(['target', 'detail']).where('actor', '=', admin).where('action', '=', 'form_trace').execute(),
  );
  expect(openings).toHaveLength(2);
  expect(openings.every((o) => o.target === leadId && JSON.parse(o.detail).found === true)).toBe(true);
  await checkPage(page, '/audit', 'Audit log');
  await expect(page.getByRole('row').filter({ hasText: admin }).filter({ hasText: 'form_trace' }).filter({ hasText: leadId })).toHaveCount(2);
});

test('an analyst sees no form trace link and is refused the trace’s direct URL (403), and nothing is opened', async ({ page }) => {
  test.setTimeout(240_000);
  const analyst = addUser('analyst');
  await signIn(page, analyst);
  await checkPage(page, `/leads/${leadId}`, `Lead ${leadId}`);
  await expect(openLink(page)).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Form trace' })).toHaveCount(0);
  await checkPage(page, `/leads/${leadId}?trace=open`, 'Not for your role', 403);
  await expect(page.getByText(marker)).toHaveCount(0);
  expect(
    await withStore((db) => db.selectFrom('console_audit').select('id').where('actor', '=', analyst).where('action', '=', 'form_trace').execute()),
  ).toEqual([]);
});
