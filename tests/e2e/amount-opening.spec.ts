/**
 * The amount as a borrower on a phone meets it: the title-loan ad page opens on its amount and
 * the amount chosen is the one the form starts with; a widget's smallest amount is one the form
 * takes as it is; an amount page's widget starts on that page's amount; the application's ZIP
 * box is on the first screen; and the opt-out page is about opting out only.
 */
import { expect, test, type Page } from '@playwright/test';
import { brandUrl } from './helpers';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

async function open(page: Page, brand: string, path: string) {
  await page.goto(brandUrl(brand, path));
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
}
const onFirstScreen = async (page: Page, selector: Parameters<Page['locator']>[0]) => {
  const box = (await page.locator(selector).first().boundingBox())!;
  return box.y + box.height <= page.viewportSize()!.height;
};

test('ustitleloans /title-loans opens on its amount, and the amount chosen is the one the title form starts with', async ({ page }) => {
  await open(page, 'ustitleloans', '/title-loans');
  const typed = page.getByRole('textbox', { name: /^Or type an amount/ });
  await expect(typed).toBeVisible();
  expect(await onFirstScreen(page, 'main input[type="range"]')).toBe(true);
  await typed.fill('2500');
  await typed.press('Enter');
  await page.getByRole('link', { name: 'Check Your Rate' }).click();
  await expect(page).toHaveURL(/\/apply-title-loans\?v1=landing-page&requestedamount=2500$/);
  await expect(page.getByLabel('Loan amount')).toHaveValue('2,500');
});

test('the payday slider runs within the form’s amounts: its smallest amount arrives unchanged, and it starts on the form’s default', async ({ page }) => {
  await open(page, 'ipaydayloans', '/payday-loans');
  const slider = page.getByRole('slider', { name: 'Loan amount' });
  await expect(slider).toHaveAttribute('aria-valuetext', '$1,000');
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(slider).toHaveAttribute('aria-valuetext', '$100');
  await page.getByRole('link', { name: 'Check Your Rate' }).click();
  await expect(page).toHaveURL(/requested_amount=100$/);
  await expect(page.getByLabel('Loan amount')).toHaveValue('100');
});

test('an ad’s link with an amount the form cannot take: the form says what it put in instead', async ({ page }) => {
  await open(page, 'ipaydayloans', '/apply?requested_amount=50');
  await expect(page.getByLabel('Loan amount')).toHaveValue('100');
  await expect(page.getByText('You asked for $50, but requests are for $100 to $35,000, so we put in $100. You can change it.')).toBeVisible();
  await page.getByLabel('Loan amount').fill('300');
  await expect(page.getByText(/^You asked for/)).toHaveCount(0);
});

test('Get Your Cash takes no amount below the form’s smallest', async ({ page }) => {
  await open(page, 'ipaydayloans', '/cash-advance');
  const widget = page.getByRole('region', { name: 'Get Your Cash' });
  const amount = widget.getByLabel(/Loan amount/);
  await amount.fill('50');
  await amount.blur();
  await expect(amount).toHaveValue('100');
});

test('/borrow-money/500-dollar-loan: the amount widget starts on $500', async ({ page }) => {
  await open(page, 'ipaydayloans', '/borrow-money/500-dollar-loan');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('$500');
  await expect(page.locator('main form select, main [role="combobox"]').first()).toHaveText(/\$500/);
});

test('/apply on a 390 × 844 phone: the amount and the whole ZIP box are on the first screen, the costs one tap away', async ({ page }) => {
  await open(page, 'ipaydayloans', '/apply');
  expect(await onFirstScreen(page, 'main input[autocomplete="postal-code"]')).toBe(true);
  const costs = page.locator('main summary', { hasText: 'Representative example and costs' });
  await costs.click();
  await expect(
    page
      .locator('main details')
      .getByText(/Representative example/)
      .last(),
  ).toBeVisible();
});

test('the opt-out page has no sticky apply bar, and a US brand’s phone hint is about US numbers', async ({ page }) => {
  await open(page, 'ipaydayloans', '/stop-calls-and-emails');
  await page.mouse.wheel(0, 2000);
  await expect(page.locator('[data-sticky-apply]')).toHaveCount(0);
  await page.getByLabel('Phone number').fill('12345');
  await page.getByRole('button', { name: 'Stop calls and emails' }).click();
  const alert = page.locator('main').getByRole('alert');
  await expect(alert).toContainText('10-digit');
  await expect(alert).not.toContainText('Australia');
});
