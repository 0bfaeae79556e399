/**
 * The content service end to end, against a second production server whose content comes
 * from a real Strapi-shaped GraphQL server started here (fixture content, with drafts and a
 * hostile article) — so the tests can stop, slow and break it.
 */
import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { loadContent } from '../../engine/content/embedded';
import { previewLink } from '../../engine/http/preview';
import { startInstance, type Instance } from '../support/instances';
import { startStrapiServer, type RunningServer } from '../support/strapi-server';
import { PORT } from './helpers';

test.describe.configure({ mode: 'serial' });

const CMS_PORT = PORT + 900;
const SITE_PORT = PORT + 50;
const TOKEN = 'e2e-token';
const REVALIDATE_SECRET = 'e2e-revalidate-secret';
const PREVIEW_SECRET = 'e2e-preview-secret';
const site = (path: string) => `http://ipaydayloans.localhost:${SITE_PORT}${path}`;

let cms: RunningServer | undefined;
let next: Instance | undefined;

const startCms = async () => {
  cms = await startStrapiServer({ index: loadContent(join(process.cwd(), 'tests/fixtures/content')), token: TOKEN, port: CMS_PORT });
};

test.beforeAll(async () => {
  test.setTimeout(90_000);
  await startCms();
  next = await startInstance(SITE_PORT, {
    CONTENT_GRAPHQL_URL: `http://127.0.0.1:${CMS_PORT}/graphql`,
    CONTENT_GRAPHQL_TOKEN: TOKEN,
    CONTENT_TIMEOUT_MS: '1500',
    REVALIDATE_SECRET,
    CONTENT_PREVIEW_SECRET: PREVIEW_SECRET,
  });
});

test.afterAll(async () => {
  await next?.stop();
  await cms?.close();
});

const revalidate = (body: unknown, secret = REVALIDATE_SECRET) =>
  fetch(`http://127.0.0.1:${SITE_PORT}/api/revalidate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', host: 'ipaydayloans.localhost', 'x-revalidate-secret': secret },
    body: JSON.stringify(body),
  });

test('the blog lists the CMS content, newest first, and 404s past the last page', async ({ page }) => {
  await page.goto(site('/blog'));
  await expect(page.locator('main li a').first()).toHaveText('Fixture article 6');
  expect((await page.goto(site('/blog/2')))?.status()).toBe(200);
  const past = await page.goto(site('/blog/3'));
  expect(past?.status()).toBe(404);
  await expect(page.locator('h1')).toHaveText('We could not find that page');
  expect((await page.goto(site('/blog/1')))?.status()).toBe(404);
  expect((await page.goto(site('/blog/payday-loans/no-such-article')))?.status()).toBe(404);
});

test('a blog with no articles yet answers, says so and is kept out of search results, as do its topics and authors; its page 2 is a 404', async ({ page }) => {
  // the fixture content has no article for the Australian market
  const empty = (path: string) => `http://fastloansau.localhost:${SITE_PORT}${path}`;
  expect((await page.goto(empty('/blog')))?.status()).toBe(200);
  await expect(page.getByText('No articles yet.')).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
  expect((await page.goto(empty('/blog/2')))?.status()).toBe(404);
  // so do its topics and authors, listed on pages of their own
  for (const [path, nothing] of [
    ['/tag', 'No topics yet.'],
    ['/author', 'No authors yet.'],
  ] as const) {
    expect((await page.goto(empty(path)))?.status(), path).toBe(200);
    await expect(page.getByText(nothing)).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  }
  // nor are they in its sitemap
  const sitemap = (await (await page.goto(empty('/sitemaps/0.xml')))?.text()) ?? '';
  expect(sitemap).toContain('<urlset');
  for (const path of ['/blog', '/tag', '/author']) expect(sitemap, path).not.toContain(`${path}</loc>`);
  // a blog with articles is indexed as before
  await page.goto(site('/blog'));
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', 'https://blog.ipaydayloans.com/blog');
});

test('an article page: body, author, Article structured data with its required properties', async ({ page }) => {
  await page.goto(site('/blog/payday-loans/fixture-article-2'));
  await expect(page.locator('h1')).toHaveText('Fixture article 2');
  // A blog page of a brand with a separate blog host links out of the blog absolutely.
  await expect(page.getByRole('link', { name: 'Tess Author' })).toHaveAttribute('href', 'https://ipaydayloans.com/author/test-author');
  const ld = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t) as Record<string, unknown>);
  const article = ld.find((d) => d['@type'] === 'Article')!;
  expect(article).toMatchObject({
    headline: 'Fixture article number 2 about payday loans',
    url: 'https://blog.ipaydayloans.com/blog/payday-loans/fixture-article-2',
    datePublished: '2026-02-10',
    dateModified: '2026-02-20',
  });
  expect(article.author).toMatchObject({ name: 'Tess Author' });
  expect(article.publisher).toMatchObject({ name: 'iPaydayLoans', logo: { url: 'https://ipaydayloans.com/logos/ipaydayloans.svg' } });
});

test('script or event handlers in content never reach the page', async ({ page }) => {
  await page.goto(site('/blog/money-basics/fixture-hostile'));
  await expect(page.locator('h1')).toHaveText('Hostile markup');
  await expect(page.getByText('<script>window.__pwned = true</script>')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
  expect(await page.locator('main script, main img, main [onerror], main [onclick]').count()).toBe(0);
  expect(await page.locator('main a[href^="javascript:"]').count()).toBe(0);
});

test('drafts: 404 for visitors; a signed preview link shows them; a bad signature is refused', async ({ page }) => {
  expect((await page.goto(site('/blog/payday-loans/fixture-draft')))?.status()).toBe(404);
  const bad = await page.goto(site('/api/preview?brand=ipaydayloans&path=/blog/payday-loans/fixture-draft&sig=' + '0'.repeat(64)));
  expect(bad?.status()).toBe(401);
  await page.goto(site(previewLink(PREVIEW_SECRET, 'ipaydayloans', '/blog/payday-loans/fixture-draft')));
  await expect(page).toHaveURL(site('/blog/payday-loans/fixture-draft'));
  await expect(page.locator('h1')).toHaveText('Draft article');
});

test('revalidate: wrong or missing secret → 401; garbage body → 400 with a reason; a path of no page → 404 naming it; right secret → 200', async () => {
  expect((await revalidate({ brand: 'ipaydayloans', paths: ['/blog'] }, 'wrong')).status).toBe(401);
  const noSecret = await fetch(`http://127.0.0.1:${SITE_PORT}/api/revalidate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"brand":"ipaydayloans","paths":["/blog"]}',
  });
  expect(noSecret.status).toBe(401);
  const garbage = await revalidate({ brand: 'ipaydayloans', paths: 'all', extra: 1 });
  expect(garbage.status).toBe(400);
  expect(JSON.stringify(await garbage.json())).toContain('/paths: must be an array');
  const big = await revalidate({ brand: 'ipaydayloans', paths: ['/' + 'a'.repeat(20_000)] });
  expect(big.status).toBe(413);
  const typo = await revalidate({ brand: 'ipaydayloans', paths: ['/blog', '/blogg'] });
  expect(typo.status).toBe(404);
  expect(await typo.json()).toMatchObject({ problems: ['/paths/1: /blogg is not a page of ipaydayloans: no route of the brand serves it'] });
  const ok = await revalidate({ brand: 'ipaydayloans', paths: ['/blog'] });
  expect(ok.status).toBe(200);
  expect(await ok.json()).toEqual({ revalidated: ['/blog'], failed: [] });
});

test('content service faults: inline fallback for a block, the last good page kept, the error page with Refresh', async ({ page }) => {
  // A page seen while the service was up…
  await page.goto(site('/answers/fixture-answer'));
  await expect(page.locator('h1')).toHaveText('Does checking my options affect my credit score?');

  await cms!.close(); // the service goes down
  cms = undefined;

  // …a block-level list on a page that renders now: inline fallback, status 200.
  const hub = await page.goto(site('/hub'));
  expect(hub?.status()).toBe(200);
  await expect(page.getByText('Oh snap! There was a problem loading this content')).toBeVisible();
  await expect(page.locator('h1')).toHaveText('Knowledge hub');

  // …the page seen before still answers after a revalidation attempt fails.
  expect((await revalidate({ brand: 'ipaydayloans', paths: ['/answers/fixture-answer'] })).status).toBe(207);
  const kept = await page.goto(site('/answers/fixture-answer'));
  expect(kept?.status()).toBe(200);
  await expect(page.locator('h1')).toHaveText('Does checking my options affect my credit score?');

  // …a page never rendered, whose own content is missing: the full-page error with Refresh.
  const broken = await page.goto(site('/blog/payday-loans/fixture-article-3?source1=spring'));
  expect(broken?.status()).toBe(500);
  await expect(page.getByText('Sorry, something went wrong with this service. Please refresh this page or try again later.')).toBeVisible();

  // The service comes back; Refresh reloads the same address, query string kept, and the page renders.
  await startCms();
  await page.getByRole('link', { name: 'Refresh' }).click();
  await expect(page.locator('h1')).toHaveText('Fixture article 3');
  expect(new URL(page.url()).search).toBe('?source1=spring');
});

test('a slow or garbled service behaves like a failed one (time-out, bad JSON)', async ({ page }) => {
  cms!.setMode('slow', 3000);
  expect((await page.goto(site('/blog/payday-loans/fixture-article-4')))?.status()).toBe(500);
  cms!.setMode('garbage');
  expect((await page.goto(site('/blog/money-basics/fixture-article-5')))?.status()).toBe(500);
  const hub = await page.goto(site('/tag'));
  expect(hub?.status()).toBe(200);
  await expect(page.getByText('Oh snap! There was a problem loading this content')).toBeVisible();
  cms!.setMode('ok');
});
