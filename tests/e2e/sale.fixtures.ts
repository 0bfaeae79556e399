/** The sale journeys' shared steps: the application form filled and submitted as a borrower would. */
import { expect, type Locator, type Page } from '@playwright/test';
import { brandUrl } from './helpers';

export const uniquePhone = () => `512${String(2000000 + Math.floor(Math.random() * 7999999))}`;

/**
 * Fills the application form on `path` and submits it by keyboard (a unique phone unless one is
 * given; a Texas ZIP unless a postal code is given with its field's label, e.g. Canada's).
 */
export async function fillAndSubmit(
  page: Page,
  opts: { brand: string; path: string; email: string; phone?: string; title?: boolean; postal?: { label: string; code: string }; port?: number },
) {
  await page.goto(brandUrl(opts.brand, opts.path, opts.port));
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
  await page.getByLabel(opts.postal?.label ?? 'ZIP code').fill(opts.postal?.code ?? '78701');
  if (opts.title) {
    await page.getByLabel('What is the loan for?').selectOption({ label: 'Auto Repair' });
    await page.getByLabel('Model year', { exact: true }).fill('2016');
    await page.getByLabel('Make', { exact: true }).fill('Toyota');
    await page.getByLabel('Model', { exact: true }).fill('Camry');
    await page.getByLabel('Approximate mileage', { exact: true }).fill('85000');
  }
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.locator('h3[tabindex="-1"]')).toContainText('Step 2 of 3');
  await contactAndIncome(page, opts.email, opts.phone ?? uniquePhone());
  await page.getByRole('button', { name: 'Submit my request' }).focus();
  await page.keyboard.press('Enter');
}

/** Steps 2 and 3 of a US form, from contact details to the ticked consent (not submitted). */
export async function contactAndIncome(page: Page, email: string, phone: string) {
  await page.getByLabel('First name').fill('Ana');
  await page.getByLabel('Last name').fill('García');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Mobile phone number').fill(phone);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.locator('h3[tabindex="-1"]')).toContainText('Step 3 of 3');
  await incomeStep(page);
}

/** Step 3 as a borrower fills it: the income, how often paid, the date of birth, the consent. */
export async function incomeStep(page: Page) {
  await page.getByLabel('Main source of income').selectOption('employment');
  await page.getByLabel('Monthly income after tax').fill('2800');
  await page.getByRole('radio', { name: 'Every two weeks' }).check();
  await page.getByLabel('Month', { exact: true }).fill('3');
  await page.getByLabel('Day', { exact: true }).fill('27');
  await page.getByLabel('Year', { exact: true }).fill('1990');
  await page.getByRole('checkbox').first().check();
}

/**
 * A script filling the form as bots do: each value pasted, each click dispatched as an event (no
 * pointer, no key), no pause between steps — what screening scores low (bot-fast,
 * bot-no-input-events, bot-paste-all). Submitted; not waited on.
 */
export async function scriptedInstantFill(page: Page, url: string, email: string, phone = uniquePhone()) {
  const paste = async (field: Locator, text: string) => {
    await field.dispatchEvent('paste');
    await field.fill(text);
  };
  const press = (button: Locator) => button.dispatchEvent('click');
  const step = page.locator('h3[tabindex="-1"]');
  await page.goto(url);
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
  await paste(page.getByLabel('Loan amount'), '800');
  await paste(page.getByLabel('ZIP code'), '78701');
  await press(page.getByRole('button', { name: 'Continue' }));
  await expect(step).toContainText('Step 2 of 3');
  await paste(page.getByLabel('First name'), 'Ana');
  await paste(page.getByLabel('Last name'), 'Garcia');
  await paste(page.getByLabel('Email address'), email);
  await paste(page.getByLabel('Mobile phone number'), phone);
  await press(page.getByRole('button', { name: 'Continue' }));
  await expect(step).toContainText('Step 3 of 3');
  await page.getByLabel('Main source of income').selectOption('employment');
  await paste(page.getByLabel('Monthly income after tax'), '2800');
  await press(page.getByRole('radio', { name: 'Every two weeks' }));
  await paste(page.getByLabel('Month', { exact: true }), '3');
  await paste(page.getByLabel('Day', { exact: true }), '27');
  await paste(page.getByLabel('Year', { exact: true }), '1990');
  await press(page.getByRole('checkbox').first());
  await press(page.getByRole('button', { name: 'Submit my request' }));
}
