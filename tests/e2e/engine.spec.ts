/** Host routing, route validation, navigation and keyboard behaviour through the real server. */
import { expect, networkQuiet, test } from './network';
import { brandUrl, expectNoAxeViolations, gotoHydrated, PORT, rawGet } from './helpers';

test('an unknown host shows "Server error: host … not found" with status 404', async ({ page }) => {
  const response = await page.goto(`http://nobrand.localhost:${PORT}/payday-loans`);
  expect(response?.status()).toBe(404);
  await expect(page.locator('h1')).toHaveText('Server error: host nobrand.localhost not found');
});

test('a hostile Host header is escaped in the error page', async () => {
  const { status, body } = await rawGet('/', '<script>alert(1)</script>');
  expect(status).toBe(404);
  expect(body).toContain('Server error: host &lt;script&gt;alert(1)&lt;/script&gt; not found');
  expect(body).not.toContain('<script>alert(1)');
});

test('x-forwarded-host is not trusted: the Host header decides the brand', async () => {
  const { status, body } = await rawGet('/', 'nobrand.localhost');
  expect(status).toBe(404);
  const forwarded = await new Promise<number>((resolve) => {
    import('node:http').then(({ request }) => {
      const req = request(
        { host: '127.0.0.1', port: PORT, path: '/', agent: false, headers: { host: 'nobrand.localhost', 'x-forwarded-host': 'ipaydayloans.localhost' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.end();
    });
  });
  expect(forwarded).toBe(404);
  expect(body).toContain('nobrand.localhost');
});

test('the same brand answers on its dev. and test123. hosts (kept out of search results) and with a port and trailing dot', async () => {
  for (const [host, robots] of [
    ['dev.ipaydayloans.com', 'noindex'],
    ['test123.ipaydayloans.com', 'noindex'],
    ['IPAYDAYLOANS.COM.', undefined],
    [`ipaydayloans.com:${PORT}`, undefined],
  ])
    // twice: the second answer is the cached page's, replayed with the head recorded on that host
    for (const path of ['/how-it-works', '/how-it-works', '/robots.txt', '/no-such-page-here']) {
      const { status, body, headers } = await rawGet(path, host!);
      expect(status, `${host} ${path}`).toBe(path === '/no-such-page-here' ? 404 : 200);
      if (path === '/how-it-works') expect(body).toContain('https://ipaydayloans.com/');
      expect(headers['x-robots-tag'], `${host} ${path}`).toBe(robots);
    }
});

test.describe('route parameters are validated (brand 404, never 500)', () => {
  for (const path of ['/location/zz', '/location/tx/not-a-city-xyz', '/location/tx/chicago', '/location/ZZ', '/payday-loans/extra']) {
    test(path, async ({ page }) => {
      const response = await page.goto(brandUrl('ipaydayloans', path));
      expect(response?.status()).toBe(404);
      await expect(page.locator('h1')).toHaveText('We could not find that page');
    });
  }
});

test('an upper-case path that exists in lower case is redirected there, one that does not is a 404', async ({ page }) => {
  const response = await page.goto(brandUrl('ipaydayloans', '/location/TX'));
  expect(response?.status()).toBe(200);
  expect(response?.request().redirectedFrom()?.url()).toBe(brandUrl('ipaydayloans', '/location/TX'));
  await expect(page).toHaveURL(brandUrl('ipaydayloans', '/location/tx'));
  await expect(page.locator('h1')).toContainText('Texas');
});

test('state and city pages are written from data', async ({ page }) => {
  await page.goto(brandUrl('ipaydayloans', '/location/tx'));
  await expect(page.locator('h1')).toContainText('Texas');
  await expect(page.getByText(/cities and towns across [\d,]+ ZIP codes/)).toBeVisible();
  await page.goto(brandUrl('ipaydayloans', '/location/ny'));
  await expect(page.getByText('cannot currently connect borrowers in New York')).toBeVisible();
  await page.goto(brandUrl('ipaydayloans', '/location/tx/houston'));
  await expect(page.locator('h1')).toContainText('Houston');
  const nearby = page.getByRole('heading', { name: 'Nearby places' });
  await expect(nearby).toBeVisible();
  const structured = await page.locator('script[type="application/ld+json"]').allTextContents();
  const types = structured.map((t) => (JSON.parse(t) as { '@type': string })['@type']);
  expect(types).toEqual(expect.arrayContaining(['Organization', 'BreadcrumbList']));
});

test('Organization structured data comes from the brand config', async ({ page }) => {
  await page.goto(brandUrl('ipaydayloans', '/'));
  const all = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t) as Record<string, unknown>);
  const org = all.find((d) => d['@type'] === 'Organization')!;
  expect(org).toMatchObject({
    name: 'iPaydayLoans',
    url: 'https://ipaydayloans.com/',
    openingHours: 'Mo-Fr 07:00-21:00',
    logo: 'https://ipaydayloans.com/logos/ipaydayloans.svg',
  });
  expect(org.potentialAction).toMatchObject({ '@type': 'SearchAction' });
});

test('a nav link navigates on the client (no full reload) and the new page is the right one', async ({ page }) => {
  await gotoHydrated(page, brandUrl('ipaydayloans', '/'));
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  const link = page.locator('header nav[aria-label="Main"] a[href="/about"]').first();
  await link.click();
  await expect(page).toHaveURL(brandUrl('ipaydayloans', '/about'));
  await expect(page.locator('h1')).not.toHaveText(/Payday Loans Online/);
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', 'https://ipaydayloans.com/about');
});

test('the keyboard opens a nav drop-down and reaches its links', async ({ page }) => {
  await page.goto(brandUrl('ipaydayloans', '/'));
  const group = page
    .locator('header nav[aria-label="Main"] > ul > li')
    .filter({ has: page.locator('ul') })
    .first();
  const trigger = group.locator('> button, > a').first();
  const firstChild = group.locator('ul a').first();
  await expect(firstChild).toBeHidden();
  for (let i = 0; i < 12 && !(await trigger.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(trigger).toBeFocused();
  await expect(firstChild).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(firstChild).toBeFocused();
  await expect(firstChild).toBeVisible();
  await expectNoAxeViolations(page);
});

test('hovering a nav group opens its drop-down', async ({ page }) => {
  await page.goto(brandUrl('ipaydayloans', '/'));
  const group = page
    .locator('header nav[aria-label="Main"] > ul > li')
    .filter({ has: page.locator('ul') })
    .first();
  await expect(group.locator('ul a').first()).toBeHidden();
  await group.hover();
  await expect(group.locator('ul a').first()).toBeVisible();
});

test('the logo-only brand has a header with just the logo and a footer with disclaimers', async ({ page }) => {
  await page.goto(brandUrl('weloans', '/'));
  await expect(page.locator('header nav')).toHaveCount(0);
  await expect(page.locator('header img')).toBeVisible();
  await expect(page.locator('footer')).toContainText(/not a lender/i);
});

test('a footer link with a character above Latin-1 (an en dash) is sent as a reference and reads as written, hydrated', async ({ page }) => {
  // the server writes the header and footer as Latin-1 markup (blocks/chrome/latin1Markup.ts) so the page's HTML stays one byte a character
  const { status, body } = await rawGet('/about', 'ipaydayloans.localhost');
  expect(status).toBe(200);
  expect(body).toContain('Store Directory A&#x2013;Z');
  expect(body).not.toMatch(/<footer[\s\S]*\u2013[\s\S]*<\/footer>/);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await gotoHydrated(page, brandUrl('ipaydayloans', '/about'));
  await expect(page.locator('footer').getByRole('link', { name: 'Store Directory A\u2013Z' })).toHaveAttribute('href', '/directory/a');
  expect(errors, 'no hydration or script errors').toEqual([]);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test('the menu opens from the Menu button and lists the nav links', async ({ page }) => {
    await page.goto(brandUrl('ipaydayloans', '/'));
    await expect(page.locator('header nav[aria-label="Main"]')).toBeHidden();
    await page.getByText('Menu', { exact: true }).click();
    // Groups are plain labels with their links: "About" labels the group, its page is "About Us".
    const mobile = page.getByRole('navigation', { name: 'Mobile' });
    await expect(mobile.getByText('About', { exact: true })).toBeVisible();
    await expect(mobile.getByRole('link', { name: 'About Us', exact: true })).toHaveAttribute('href', '/about');
    await expectNoAxeViolations(page);
  });
});

test('the quick amount picker (an interactive block) hydrates and hands off through the apply URL builder', async ({ page }) => {
  await page.goto(brandUrl('ipaydayloans', '/'));
  await page.evaluate(() => localStorage.setItem('LoansSource1', 'spring-mailer'));
  await page.reload();
  await networkQuiet(page);
  const picker = page.getByRole('region', { name: 'How Much Instant Cash Do You Need?' });
  await picker.getByRole('combobox', { name: 'Loan amount' }).click();
  await picker.getByRole('option', { name: '$2,000' }).click();
  await picker.getByRole('button').click();
  // 2000 is rounded up to the 2500 bracket; v1 comes from local storage, read after mount.
  await expect(page).toHaveURL(brandUrl('ipaydayloans', '/apply?v1=spring-mailer&requested_amount=2500'));
});

test('internal links work without JavaScript (plain anchors)', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(brandUrl('ipaydayloans', '/'));
  await page.locator('footer a[href="/location/tx"]').click();
  await expect(page).toHaveURL(brandUrl('ipaydayloans', '/location/tx'));
  await expect(page.locator('h1')).toContainText('Texas');
  await context.close();
});

test('the local-mode GraphQL endpoint serves LIVE content in the Strapi shape and checks its input', async () => {
  const post = (body: unknown) =>
    fetch(`http://127.0.0.1:${PORT}/api/content/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', host: 'ipaydayloans.localhost' },
      body: JSON.stringify(body),
    });
  const query =
    'query($p: PublicationState){ articleLists(filters: {category: {eq: "payday-loans"}}, pagination: {page: 1, pageSize: 2}, publicationState: $p) { data { attributes { url } } meta { pagination { total pageSize } } } }';
  const ok = await post({ query, variables: { p: 'LIVE' } });
  expect(ok.status).toBe(200);
  const body = (await ok.json()) as {
    data: { articleLists: { data: { attributes: { url: string } }[]; meta: { pagination: { pageSize: number; total: number } } } };
  };
  expect(body.data.articleLists.meta.pagination.pageSize).toBe(2);
  expect(body.data.articleLists.data[0]!.attributes.url).toMatch(/^\/blog\/payday-loans\//);
  expect((await post({ query, variables: { p: 'PREVIEW' } })).status).toBe(400);
  expect((await post({ nope: 1 })).status).toBe(400);
  expect((await fetch(`http://127.0.0.1:${PORT}/api/content/graphql`, { headers: { host: 'ipaydayloans.localhost' } })).status).toBe(405);
});

test("the payday brand's blog answers on its own host: / goes to /blog, other pages are 404, canonical names the blog host", async ({ page }) => {
  await page.goto(`http://blog.ipaydayloans.localhost:${PORT}/`);
  await expect(page).toHaveURL(`http://blog.ipaydayloans.localhost:${PORT}/blog`);
  const response = await page.goto(`http://blog.ipaydayloans.localhost:${PORT}/blog`);
  expect(response?.status()).toBe(200);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', 'https://blog.ipaydayloans.com/blog');
  expect((await page.goto(`http://blog.ipaydayloans.localhost:${PORT}/payday-loans`))?.status()).toBe(404);
});

test('the search form sends the visitor to the state page (works without JavaScript)', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(brandUrl('ipaydayloans', '/search'));
  await page.getByLabel('State', { exact: true }).selectOption('texas');
  await page.locator('main form button[type="submit"]').click();
  await expect(page).toHaveURL(brandUrl('ipaydayloans', '/location/tx'));
  await expect(page.locator('h1')).toContainText('Texas');
  const unknown = await rawGet('/search?state=atlantis', 'ipaydayloans.localhost');
  expect(unknown.status).toBe(200);
  await context.close();
});
