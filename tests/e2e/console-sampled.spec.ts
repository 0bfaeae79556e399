/**
 * The overview says when it shows sampled data: events refused past the site's ingest budget are
 * counted by hour and brand (traffic_refused), and a range holding some shows the operator how
 * many, above the counts; a range without any shows no such notice.
 */
import { expect, test } from '@playwright/test';
import { addUser, CONSOLE, signIn, withStore } from './console.fixtures';

test('a range with events refused past the budget says the overview shows sampled data; another range does not', async ({ page }) => {
  await withStore((db) =>
    db
      .insertInto('traffic_refused')
      .values({ hour: '2020-01-05T13', brand: 'ipaydayloans', count: 1234 })
      .onConflict((oc) => oc.columns(['hour', 'brand']).doUpdateSet({ count: 1234 }))
      .execute(),
  );
  await signIn(page, addUser('analyst'));
  await page.goto(`${CONSOLE}/?from=2020-01-05&to=2020-01-05&brand=ipaydayloans`);
  await expect(page.getByRole('status').filter({ hasText: 'Sampled data' })).toHaveText(
    'Sampled data: 1,234 events were refused past the ingest budget in this range, so the counts below are lower than what happened.',
  );
  await page.goto(`${CONSOLE}/?from=2020-01-06&to=2020-01-06&brand=ipaydayloans`);
  await expect(page.getByRole('table', { name: 'The funnel, stage by stage' })).toBeVisible();
  await expect(page.getByText('Sampled data')).toHaveCount(0);
});
