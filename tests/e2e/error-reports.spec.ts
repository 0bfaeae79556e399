/**
 * Error reports against a real envelope receiver (tests/support/envelopeReceiver.ts) started by
 * the test — the DSN's host, answering CORS as Sentry's ingest does — through a second
 * production server (same build) whose SENTRY_DSN points at it and whose content service is
 * down: a block that throws in the browser is one envelope the browser posts straight to the
 * DSN (no preflight, allowed by the page's policy, zero violations) with the message, the brand
 * tag and the release; a page whose content fails on the server (getStaticProps) is one, sent by
 * the server; duplicates are dropped and a page view sends at most 5. Without a DSN (the main
 * test server) nothing is sent.
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInstance, type Instance } from '../support/instances';
import { startEnvelopeReceiver, type EnvelopeReceiver } from '../support/envelopeReceiver';
import { brandUrl, PORT } from './helpers';
import { cspViolations, fakeThirdParties } from './thirdParties';

const SITE_PORT = PORT + 60;
const DEAD_CMS_PORT = PORT + 61; // nothing listens here: the content service is down
const site = (brand: string, path: string) => `http://${brand}.localhost:${SITE_PORT}${path}`;
const OOPS = 'Oh snap! There was a problem loading this content';

let receiver: EnvelopeReceiver;
let server: Instance | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  receiver = await startEnvelopeReceiver();
  server = await startInstance(SITE_PORT, {
    LOANSITES_DB_FILE: join(tmpdir(), `loansites-e2e-errors-${SITE_PORT}.sqlite`),
    DATABASE_URL: '',
    SENTRY_DSN: receiver.dsn('e2epublickey', '42'),
    SENTRY_ENVIRONMENT: 'e2e',
    CONTENT_GRAPHQL_URL: `http://127.0.0.1:${DEAD_CMS_PORT}/graphql`,
    CONTENT_GRAPHQL_TOKEN: 'unused',
    CONTENT_TIMEOUT_MS: '1000',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

test.beforeEach(async ({ context }) => {
  receiver.events.splice(0);
  await fakeThirdParties(context); // the tag manager and pixel of these brands, never reached
  // The receiver listens on loopback. A page the test rewrites (route.fulfill) has no address of
  // its own, so Chromium's Local Network Access would ask the visitor before it may post there;
  // the test answers yes. (A real DSN's host is public: no such question.)
  await context.grantPermissions(['local-network-access']);
});

/** route.fetch runs in Node, which does not resolve *.localhost: fetch from loopback with the brand's Host header. */
const fetchViaLoopback = (route: Route) => {
  const url = new URL(route.request().url());
  const host = url.host;
  url.hostname = '127.0.0.1';
  return route.fetch({ url: url.toString(), headers: { ...route.request().headers(), host } });
};

/**
 * The amount picker's data broken in the page's __NEXT_DATA__: the block throws as the browser
 * hydrates it (an interactive block: static ones keep the server's HTML on a first load).
 */
async function breakQuickAmount(page: Page, url: string) {
  await page.route(url, async (route) => {
    const response = await fetchViaLoopback(route);
    const html = await response.text();
    const body = html.replace(/(<script id="__NEXT_DATA__" type="application\/json">)(.*?)(<\/script>)/s, (_m, open: string, data: string, close: string) => {
      const next = JSON.parse(data) as { props: { pageProps: { model: { blocks: { type: string; data: { options?: unknown } }[] } } } };
      next.props.pageProps.model.blocks.find((b) => b.type === 'quickAmount')!.data.options = null;
      return open + JSON.stringify(next) + close;
    });
    await route.fulfill({ response, body });
  });
}

test('a block that throws in the browser: "Oh snap!" in its place and one envelope with the message, brand tag and release', async ({ page }) => {
  const url = site('ipaydayloans', '/');
  await breakQuickAmount(page, url);
  const response = await page.goto(url);
  await expect(page.getByText(OOPS, { exact: true })).toHaveCount(1);
  await expect.poll(() => receiver.events.length).toBe(1);
  // Straight from the browser to the DSN's host: the page's origin, a simple text/plain post
  // (no preflight), allowed by exactly that origin in the policy.
  expect(receiver.events[0]).toMatchObject({ origin: `http://ipaydayloans.localhost:${SITE_PORT}`, contentType: 'text/plain;charset=UTF-8' });
  expect(receiver.preflights).toBe(0);
  const connectSrc = /connect-src ([^;]*)/.exec(response!.headers()['content-security-policy'] ?? '')?.[1]?.split(' ');
  expect(connectSrc).toContain(`http://127.0.0.1:${receiver.port}`);
  expect(connectSrc!.filter((s) => s.includes('127.0.0.1'))).toEqual([`http://127.0.0.1:${receiver.port}`]);
  expect(await cspViolations(page)).toEqual([]);
  // A later error as a marker: once it has arrived, anything sent before it has too.
  await page.evaluate(() =>
    setTimeout(() => {
      throw new Error('marker');
    }),
  );
  await expect.poll(() => receiver.events.map((e) => e.event.exception.values[0].value)).toContain('marker');
  expect(receiver.events.filter((e) => e.event.tags.kind === 'boundary')).toHaveLength(1);
  const { project, key, header, event } = receiver.events[0]!;
  expect({ project, key }).toEqual({ project: '42', key: 'e2epublickey' });
  expect(header).toMatchObject({ event_id: event.event_id });
  expect(Date.parse(String(header.sent_at))).toBeGreaterThan(Date.now() - 60_000);
  expect(event.exception.values[0].value).toMatch(/null|undefined/);
  expect(event.tags).toMatchObject({ brand: 'ipaydayloans', kind: 'boundary' });
  const release = await page.locator('script[data-release]').getAttribute('data-release');
  expect(release).toMatch(/^[0-9a-f]{40}$/);
  expect(event.release).toBe(release);
  expect(event).toMatchObject({ platform: 'javascript', level: 'error', environment: 'e2e', request: { url } });
});

test('browser errors: window error and unhandled rejection, the same error once, at most 5 per page view, a new page view counts again', async ({ page }) => {
  await page.goto(site('cocoloan', '/privacy'));
  await page.evaluate(() => setTimeout(() => void Promise.reject(new Error('a promise nobody caught'))));
  await expect.poll(() => receiver.events.length).toBe(1);
  await page.evaluate(() => {
    const fail = (m: string) =>
      setTimeout(() => {
        throw new Error(m);
      });
    fail('same thing broke');
    fail('same thing broke');
    for (let i = 1; i <= 6; i++) fail(`distinct failure ${i}`);
  });
  await expect.poll(() => receiver.events.length).toBe(5);

  // A new page view counts again; once its error has arrived, everything the first sent has too.
  await page.goto(site('cocoloan', '/terms'));
  await page.evaluate(() =>
    setTimeout(() => {
      throw new Error('on the next page');
    }),
  );
  await expect.poll(() => receiver.events.map((e) => e.event.exception.values[0].value)).toContain('on the next page');
  expect(receiver.events).toHaveLength(6);
  const messages = receiver.events.slice(0, 5).map((e) => e.event.exception.values[0].value);
  expect(messages.filter((m) => m === 'same thing broke')).toHaveLength(1);
  expect(receiver.events.find((e) => e.event.exception.values[0].value === 'a promise nobody caught')?.event.tags).toMatchObject({
    brand: 'cocoloan',
    kind: 'unhandledrejection',
  });
  expect(receiver.events.every((e) => e.event.tags.brand === 'cocoloan')).toBe(true);
});

test('a page without errors asks nothing; the first report of a page load asks where to post once', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (r) => void (new URL(r.url()).pathname === '/api/error-reporting' && asked.push(r.url())));
  await page.goto(site('cocoloan', '/privacy'));
  await page.waitForLoadState('load');
  expect(asked).toEqual([]);
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('one');
    });
    setTimeout(() => {
      throw new Error('two');
    });
  });
  await expect.poll(() => receiver.events.length).toBe(2);
  expect(asked).toHaveLength(1);
  expect(receiver.events.every((e) => e.origin === `http://cocoloan.localhost:${SITE_PORT}`)).toBe(true);
});

test('without a DSN (the main test server) the browser is told so and sends nothing', async ({ page, request }) => {
  const answer = await request.get(`http://127.0.0.1:${PORT}/api/error-reporting`);
  expect(answer.status()).toBe(404);
  const posts: string[] = [];
  page.on('request', (r) => void (r.method() === 'POST' && /envelope/.test(r.url()) && posts.push(r.url())));
  const response = await page.goto(brandUrl('cocoloan', '/privacy'));
  expect(/connect-src ([^;]*)/.exec(response!.headers()['content-security-policy'] ?? '')?.[1]).not.toMatch(/127\.0\.0\.1|sentry/);
  const told = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/error-reporting');
  await page.evaluate(() =>
    setTimeout(() => {
      throw new Error('nobody listens');
    }),
  );
  expect((await told).status()).toBe(404);
  await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
  expect(posts).toEqual([]);
  expect(receiver.events).toEqual([]);
});

test('a page whose content fails on the server (getStaticProps): the error page, and one envelope tagged with the brand', async ({ page }) => {
  const res = await page.goto(site('ipaydayloans', '/blog/payday-loans/fixture-article-3'));
  expect(res?.status()).toBe(500);
  await expect.poll(() => receiver.events.filter((e) => e.event.tags.kind === 'getStaticProps').length, { timeout: 15_000 }).toBe(1);
  const { event } = receiver.events.find((e) => e.event.tags.kind === 'getStaticProps')!;
  expect(event).toMatchObject({
    platform: 'node',
    level: 'error',
    environment: 'e2e',
    tags: { brand: 'ipaydayloans', kind: 'getStaticProps' },
    request: { url: '/blog/payday-loans/fixture-article-3' },
  });
  expect(receiver.events.find((e) => e.event.tags.kind === 'getStaticProps')?.origin).toBeUndefined(); // sent by the server
  expect(event.release).toMatch(/^[0-9a-f]{40}$/);
  expect(event.exception.values[0].value).toBeTruthy();
});
