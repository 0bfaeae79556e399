/**
 * A brand launched, edited, published and restored in the browser, as an editor does it: the
 * wizard's questions (a colour too light for white text told at its question, nothing else lost),
 * a new headline seen in the preview, a link to a page that does not exist told at its field with
 * publishing refused, the fix published and served on the brand's dev. host without a build, an
 * earlier version restored; two editors saving the same brand, neither losing an edit; and a
 * publish refused for a problem only the server sees (a host taken meanwhile), the keyboard handed
 * to the list of problems rather than lost with the disabled Publish button; and a Canadian brand
 * launched the same way, its address checked in Canada's shape.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './helpers';
import { addUser, clearNetworkAttempts, CONSOLE, raw, run, signIn } from './console.fixtures';
import { asPage, csrfOf, openStudio } from './studio.fixtures';

test.beforeAll(clearNetworkAttempts);

/** The answers a new brand needs (its id and host from `name`). */
const answersFor = (id: string) => ({
  id,
  name: `Studio ${id}`,
  hosts: `${id}.com`,
  primaryColor: '#0b5394',
  phone: '+1-800-555-0100',
  email: `help@${id}.com`,
  address: '1 Main St, Austin, TX 78701',
});

/** A new draft brand through the API, as the wizard makes one. */
async function createBrand(page: Page, id: string) {
  const res = await asPage(page, 'POST', '/api/console/studio/brands', { answers: answersFor(id) }, { 'x-csrf-token': await csrfOf(page) });
  expect(res.status, res.body).toBe(201);
}

/**
 * How long a wait for the server's answer to a check, a save, a publish or a restore may take: far
 * more than it does (well under a second alone), as the whole suite runs beside the unit tests on
 * two cores and a publish rebuilds the catalog.
 */
const ANSWER_MS = 15_000;
/** How long a studio page's script may take to run after it loads (as openStudio waits). */
const SCRIPT_MS = 30_000;

/** The dev. host of the brand, asked as a visitor's browser would. */
const devPage = async (id: string, path = '/') => raw('GET', path, `dev.${id}.com`);

const saved = (page: Page) => expect(page.getByRole('status').filter({ hasText: /^Saved as draft version \d+$/ })).toBeVisible({ timeout: ANSWER_MS });

test('an editor launches a brand in the wizard, changes its headline in the preview, is refused a broken link at its field, publishes the fix to its dev. host and restores the earlier text', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const id = `st${run}`;
  await signIn(page, addUser('editor'));
  await openStudio(page, '/studio/new');
  const a = answersFor(id);
  // "Create" with nothing answered, by keyboard: the keyboard lands on the list of what to change
  await page.getByRole('button', { name: 'Create the draft brand' }).focus();
  await page.keyboard.press('Enter');
  const summary = page.getByRole('region', { name: /answers need a change$/ });
  await expect(summary).toBeFocused({ timeout: ANSWER_MS });
  await expect(summary.getByRole('link', { name: /^Maps access token: / })).toBeVisible();
  await expectNoAxeViolations(page);
  // an id typed and left at once for the next question is checked too, not only the last answer
  await page.getByLabel(/^The brand key/).fill(`St ${id}`);
  await page.getByLabel('The brand name visitors see').fill(a.name);
  await expect(page.locator('#new-id-problems')).toContainText('use 2-41 lowercase letters', { timeout: ANSWER_MS });
  await page.getByLabel(/^The brand key/).fill(a.id);
  await page.getByLabel('Production host names, comma-separated').fill(a.hosts);
  await expect(page.locator('#new-id-problems')).toHaveCount(0, { timeout: ANSWER_MS });
  // the keys refused for want of their default have it from the id now: nothing is left to say about them
  await expect(page.locator('#new-mapKey-problems')).toHaveCount(0, { timeout: ANSWER_MS });
  await expect(page.locator('#new-siteKey-problems')).toHaveCount(0);
  // the answers given are there again after leaving the wizard midway
  await page.getByRole('link', { name: 'Brands', exact: true }).click();
  await page.goBack();
  await expect(page.locator('[data-studio-ready]')).toBeAttached({ timeout: SCRIPT_MS });
  await expect(page.getByLabel(/^The brand key/)).toHaveValue(a.id);
  await expect(page.getByLabel('The brand name visitors see')).toHaveValue(a.name);
  // a colour too light for white text is told at its question, and the other answers stay
  const color = page.getByLabel(/^Primary colour/).first();
  await color.fill('#ffd54f');
  await expect(page.locator('#new-primaryColor-problems')).toContainText('white text on #ffd54f has a contrast of 1.', { timeout: ANSWER_MS });
  // the unreadable sample is a picture of the button beside the words saying so, not the page's own text
  await expect(page.getByRole('img', { name: 'Sample: an Apply now button, white text on #ffd54f' })).toBeVisible();
  await expectNoAxeViolations(page);
  await expect(page.getByLabel('The brand name visitors see')).toHaveValue(a.name);
  await color.fill(a.primaryColor);
  await expect(page.locator('#new-primaryColor-problems')).toHaveCount(0, { timeout: ANSWER_MS });
  await page.getByLabel('Contact phone').fill(a.phone);
  await page.getByLabel('Contact email').fill(a.email);
  // a paste longer than the studio takes is cut at the field, and the question's own check speaks there
  const address = page.getByLabel(/^Postal address/);
  await address.fill(`1 Main St, ${'Suite 9, '.repeat(80)}Austin, TX 78701`);
  await expect(address).toHaveValue(/^.{500}$/);
  await expect(page.locator('#new-address-problems')).toContainText('write it as street, city, state code and ZIP code', { timeout: ANSWER_MS });
  await expect(page.getByRole('status')).not.toContainText('not valid');
  await address.fill(a.address);
  // readable under the pointer too
  await page.getByRole('button', { name: 'Create the draft brand' }).hover();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Create the draft brand' }).click();
  await expect(page).toHaveURL(`${CONSOLE}/studio/${id}`, { timeout: 30_000 });
  await expect(page.locator('[data-studio-ready]')).toBeAttached({ timeout: SCRIPT_MS });

  // the home page's headline, on a copy of the shared layout for this page only; the preview follows
  await page.getByRole('button', { name: 'Pages', exact: true }).click();
  await page.getByLabel('Page', { exact: true }).selectOption({ label: '/' });
  await page.getByRole('button', { name: 'Give this page its own copy of the layout' }).click();
  // the button goes with the shared layout: the keyboard is handed on to the page's own blocks
  await expect(page.getByRole('heading', { name: /^This page's layout .* and its blocks$/ })).toBeFocused();
  const headline = `Fresh headline ${run}`;
  const heading = page.locator('fieldset[data-pointer$="/blocks"] > ol > li').first().getByLabel('Heading (required)');
  await heading.fill(headline);
  const typed = Date.now();
  const phone = page.frameLocator('iframe[data-width="390"]');
  await expect(phone.getByRole('heading', { level: 1 })).toHaveText(headline, { timeout: ANSWER_MS });
  await expect(page.frameLocator('iframe[data-width="1280"]').getByRole('heading', { level: 1 })).toHaveText(headline, { timeout: ANSWER_MS });
  console.log(`preview updated ${Date.now() - typed} ms after the last keystroke`);

  // a link to a page that does not exist: the problem at the link's field, listed at the top, publishing refused
  await page.getByRole('button', { name: 'Navigation', exact: true }).click();
  const link = page.locator('[data-pointer="/nav/items/1/href"]');
  const href = await link.getByRole('combobox').inputValue();
  await link.getByRole('combobox').fill('/no-such-page');
  await expect(link).toContainText('link "/no-such-page" goes to no page', { timeout: ANSWER_MS });
  await expect(
    page.getByRole('region', { name: /problem/ }).getByRole('link', { name: /^Navigation › Items › 2\. .+ › Link to: link "\/no-such-page" goes to no page/ }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish' })).toBeDisabled();
  const { csrf, version } = (await asPage(page, 'GET', `/api/console/studio/brands/${id}`)).json() as { csrf: string; version: number };
  const refused = await asPage(page, 'POST', `/api/console/studio/brands/${id}/publish`, { version }, { 'x-csrf-token': csrf });
  expect(refused.status, refused.body).toBe(422);
  expect((await devPage(id)).body).not.toContain(headline);
  await expectNoAxeViolations(page);

  // fixed, published: the dev. host answers with the new page at once, without a build
  await link.getByRole('combobox').fill(href);
  await expect(link).not.toContainText('goes to no page', { timeout: ANSWER_MS });
  await saved(page);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.locator('#publish-why')).toHaveText(/^Published version \d+/, { timeout: ANSWER_MS });
  await expect.poll(async () => (await devPage(id)).body, { timeout: ANSWER_MS }).toContain(headline);

  // a second text published, then the first restored from the history
  await page.getByRole('button', { name: 'Pages', exact: true }).click();
  await page.getByLabel('Page', { exact: true }).selectOption({ label: '/' });
  await page.locator('fieldset[data-pointer$="/blocks"] > ol > li').first().getByLabel('Heading (required)').fill(`Second headline ${run}`);
  await saved(page);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.locator('#publish-why')).toHaveText(/^Published version \d+/, { timeout: ANSWER_MS });
  await expect.poll(async () => (await devPage(id)).body, { timeout: ANSWER_MS }).toContain(`Second headline ${run}`);

  await openStudio(page, `/studio/${id}/history`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`History of ${id}`);
  await expectNoAxeViolations(page);
  const firstPublished = page
    .getByRole('row')
    .filter({ hasText: /by editor-/ })
    .last();
  // the cell's text may carry its column's name for a phone's reader: the number is what counts
  const firstVersion = /\d+$/.exec(((await firstPublished.getByRole('cell').first().textContent()) ?? '').trim())![0];
  await page.locator('select[name="a"]').selectOption(firstVersion);
  // the comparison is a page of its own: the one before showed the last change too, and acting on
  // it would be acting on a page about to go
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]a=${firstVersion}(&|$)`));
  await expect(page.locator('[data-studio-ready]')).toBeAttached({ timeout: SCRIPT_MS });
  await expect(page.getByRole('table', { name: /What changed/ })).toContainText(`Second headline ${run}`);
  await expect(page.getByRole('table', { name: /What changed/ })).toContainText('Heading');
  // a time that has passed is refused in the page: the server would publish at once
  await page.getByLabel('Publish at (your time)').fill('2020-01-01T09:00');
  await page.getByRole('button', { name: 'Publish at this time' }).click();
  await expect(page.getByRole('status')).toContainText('has passed. Give a time ahead');
  // the version with the broken link is refused, and the refusal says what is wrong and where
  await page.getByLabel('Version to restore').selectOption(String(version));
  await page.getByRole('button', { name: 'Restore this version' }).click();
  await expect(page.getByRole('status')).toContainText('no longer passes the checks', { timeout: ANSWER_MS });
  await expect(page.getByRole('status').getByRole('listitem')).toHaveText(/link "\/no-such-page" goes to no page.*\(\/nav\/items\/1\/href\)$/);
  await expectNoAxeViolations(page);
  await page.getByLabel('Version to restore').selectOption(firstVersion);
  await page.getByRole('button', { name: 'Restore this version' }).click();
  await expect(page.getByRole('status')).toHaveText(new RegExp(`^Version ${firstVersion} is live again`), { timeout: ANSWER_MS });
  await expect.poll(async () => (await devPage(id)).body, { timeout: ANSWER_MS }).toContain(headline);
});

test('an editor launches a Canadian brand in the wizard: its address is checked as Canadian, and its published pages are Canadian', async ({ page }) => {
  test.setTimeout(180_000);
  const id = `sk${run}`;
  const a = answersFor(id);
  await signIn(page, addUser('editor'));
  await openStudio(page, '/studio/new');
  await page.getByLabel(/^The brand key/).fill(id);
  await page.getByLabel('The brand name visitors see').fill(a.name);
  await page.getByLabel('Production host names, comma-separated').fill(a.hosts);
  await page
    .getByLabel(/^Primary colour/)
    .first()
    .fill(a.primaryColor);
  // a Toronto number, written the local way, while the country is still the US: told it is Canadian
  await page.getByLabel('Contact phone').fill('(416) 555-0187');
  await expect(page.locator('#new-phone-problems')).toContainText(
    '"(416) 555-0187" is a Canadian number (area code 416), but this brand is in the United States',
    { timeout: ANSWER_MS },
  );
  await page.getByLabel('Contact email').fill(a.email);
  // a Canadian address while the country is still the US: told which country it reads as
  await page.getByLabel(/^Postal address/).fill('240 Richmond St W, Suite 410, Toronto, ON M5V 1V6');
  await expect(page.locator('#new-address-problems')).toContainText(
    '"ON M5V 1V6" reads as a Canadian province and postal code, but this brand is in the United States',
    { timeout: ANSWER_MS },
  );
  await expectNoAxeViolations(page);
  // Canada chosen: the phone and the address are checked again, and accepted
  await page.getByLabel(/^Country/).selectOption({ label: 'CA (Canada)' });
  await expect(page.locator('#new-address-problems')).toHaveCount(0, { timeout: ANSWER_MS });
  await expect(page.locator('#new-phone-problems')).toHaveCount(0, { timeout: ANSWER_MS });
  // accepted as typed, and told how the brand's pages will write it
  await expect(page.locator('#new-phone-warning')).toHaveText('Note: the brand will show it as +1-416-555-0187', { timeout: ANSWER_MS });
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Create the draft brand' }).click();
  await expect(page).toHaveURL(`${CONSOLE}/studio/${id}`, { timeout: 30_000 });
  await expect(page.locator('[data-studio-ready]')).toBeAttached({ timeout: SCRIPT_MS });
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.locator('#publish-why')).toHaveText(/^Published version \d+/, { timeout: ANSWER_MS });
  // the brand answers in Canadian English, with Canada's privacy law and the province's postal code
  await expect.poll(async () => (await devPage(id)).body, { timeout: ANSWER_MS }).toContain('lang="en-CA"');
  expect((await devPage(id, '/privacy')).body).toContain('PIPEDA');
  // the number as typed, (416) 555-0187, written the way the brand files write one
  expect((await devPage(id)).body).toContain('"telephone":"+1-416-555-0187"');
  expect((await devPage(id, '/apply')).body).toContain('Postal code');
});

test("two editors save the same brand: the second sees the first's change, and neither loses an edit", async ({ browser }) => {
  test.setTimeout(180_000);
  const id = `sc${run}`;
  const [one, two] = await Promise.all([browser.newPage(), browser.newPage()]);
  await signIn(one, addUser('editor'));
  await signIn(two, addUser('editor'));
  await createBrand(one, id);
  await openStudio(one, `/studio/${id}`);
  await openStudio(two, `/studio/${id}`);

  await one.getByLabel('Name (required)').fill(`Renamed ${run}`);
  await saved(one);
  await two.getByLabel('Page title (required)').fill(`Title by two ${run}`);
  const conflict = two.getByRole('region', { name: /saved this brand while you were editing/ });
  await expect(conflict).toContainText(`Name: Studio ${id} → Renamed ${run}`, { timeout: ANSWER_MS });
  await saved(two);
  // read and put away by keyboard: focus goes on to the part being edited, not lost with the button
  await conflict.getByRole('button', { name: 'Done reading' }).focus();
  await two.keyboard.press('Enter');
  await expect(conflict).toHaveCount(0);
  await expect(two.getByRole('button', { name: 'Settings', exact: true })).toBeFocused();
  await expect(two.getByLabel('Name (required)')).toHaveValue(`Renamed ${run}`);
  await expect(two.getByLabel('Page title (required)')).toHaveValue(`Title by two ${run}`);

  // as stored: both edits
  await openStudio(one, `/studio/${id}`);
  await expect(one.getByLabel('Name (required)')).toHaveValue(`Renamed ${run}`);
  await expect(one.getByLabel('Page title (required)')).toHaveValue(`Title by two ${run}`);
});

test('a publish the server refuses for a problem the editor did not show hands the keyboard to the list of problems', async ({ page }) => {
  test.setTimeout(180_000);
  const id = `sf${run}`;
  const other = `sg${run}`;
  await signIn(page, addUser('editor'));
  await createBrand(page, id);
  await openStudio(page, `/studio/${id}`);
  const publish = page.getByRole('button', { name: 'Publish' });
  await expect(publish).toBeEnabled();
  // another brand's draft on this brand's host: the wizard says so at the hosts, as a note, not a refusal
  const claimed = `is also claimed by the draft of Studio ${id} (${id}, version 1), not published yet`;
  await openStudio(page, '/studio/new');
  await page.getByLabel(/^The brand key/).fill(other);
  await page.getByLabel('Production host names, comma-separated').fill(`${id}.com`);
  await expect(page.locator('#new-hosts-warning')).toContainText(`host "${id}.com" ${claimed}`, { timeout: ANSWER_MS });
  await expect(page.locator('#new-hosts-problems')).toHaveCount(0);
  const csrf = await csrfOf(page);
  const made = await asPage(page, 'POST', '/api/console/studio/brands', { answers: { ...answersFor(other), hosts: `${id}.com` } }, { 'x-csrf-token': csrf });
  expect(made.status, made.body).toBe(201);
  // and this brand's editor is told of the other draft when it opens the brand
  await openStudio(page, `/studio/${id}`);
  await expect(page.getByRole('region', { name: 'To settle before publishing' })).toContainText(
    `host "${id}.com" is also claimed by the draft of Studio ${other} (${other}, version 1), not published yet`,
  );
  await expect(publish).toBeEnabled();
  // then the other brand is published on this brand's host: only the server's check at publishing refuses this one
  const taken = await asPage(page, 'POST', `/api/console/studio/brands/${other}/publish`, { version: made.json().version }, { 'x-csrf-token': csrf });
  expect(taken.status, taken.body).toBe(200);

  await publish.focus();
  await page.keyboard.press('Enter');
  const problems = page.getByRole('region', { name: /problem/ });
  await expect(problems).toContainText(`host "${id}.com" is also claimed by`, { timeout: ANSWER_MS });
  await expect(publish).toBeDisabled();
  // the disabled button would drop the focus to the page's start; it lands on what to fix instead
  await expect(problems).toBeFocused();
  await expectNoAxeViolations(page);
});
