import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { createEmbeddedSource, loadContent } from '../../engine/content/embedded';
import { createStrapiClient } from '../../engine/content/strapi';
import type { ContentSource } from '../../engine/content/types';
import type { PageModel } from '../../engine/site/model';
import { buildPageModel } from '../../engine/site/pageModel';
import { startStrapiServer, type RunningServer } from '../support/strapi-server';
import { withContentRoutes } from '../fixtures/content-routes';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { executeStrapiQuery } from '../../engine/content/strapiSchema';
import { READ_ALL_MAX_CALLS } from '../../engine/site/contentLists';
import { brandPaths, contentPaths, sitemapPaths } from '../../engine/site/seo/sitemap';

const acme = withContentRoutes(readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8'));
// The Canadian copy without the US brand's location pages ({stateCode}) and the links to them: the validator refuses US state pages on a brand outside the US.
const withoutUsLocationPages = (text: string): string => {
  const doc = JSON.parse(text) as { routes: { path: string }[]; nav?: { items?: { href?: string }[] }; footer?: { stateLinks?: unknown } };
  const usPage = (path = '') => path.includes('{stateCode}') || path.startsWith('/location/');
  const nav = doc.nav?.items ? { ...doc.nav, items: doc.nav.items.filter((i) => !usPage(i.href)) } : doc.nav;
  const { stateLinks: _, ...footer } = doc.footer ?? {};
  return JSON.stringify({ ...doc, routes: doc.routes.filter((r) => !usPage(r.path)), ...(nav ? { nav } : {}), ...(doc.footer ? { footer } : {}) }, null, 2);
};
const acmeCa = withoutUsLocationPages(acme)
  .replace('"id": "acme"', '"id": "acmeca"')
  .replaceAll('acmeloans.com', 'acmeloans.ca')
  .replace('"country": "US"', '"country": "CA"')
  .replace('"locale": "en-US"', '"locale": "en-CA"')
  .replace('"currency": "USD"', '"currency": "CAD"')
  // A Canadian brand states Canada's cost rules (the validator refuses the US example, above the 35% cap).
  .replace(
    '"country": "CA",',
    '"country": "CA", "lending": { "representativeExample": "Representative example: a $1,000 loan repaid in 12 monthly instalments of $99.96 at 34.99% APR costs $1,199.52 in total. The Criminal Code caps the APR at 35%." },',
  );
const layouts = readSources().layouts.filter((l) => l.file.includes('/content-'));
const catalog = buildCatalog(
  [
    { file: 'brands/acme.json', text: acme },
    { file: 'brands/acmeca.json', text: acmeCa },
  ],
  layouts,
  BLOCK_SPECS,
);
const index = loadContent(join(__dirname, '../fixtures/content'));
const embedded = createEmbeddedSource(index);
const now = new Date('2026-11-21T12:00:00Z');
const page = async (path: string, opts: { draftMode?: boolean; source?: ContentSource; brand?: string } = {}) =>
  buildPageModel(catalog, opts.brand ?? 'acme', path, { source: opts.source ?? embedded, now, ...(opts.draftMode ? { draftMode: true } : {}) });
const ok = async (path: string, opts?: Parameters<typeof page>[1]) => {
  const m = await page(path, opts);
  if (m === 'notFound') throw new Error(`${path} is not found`);
  return m;
};
const block = <T extends PageModel['blocks'][number]['type']>(m: PageModel, type: T) =>
  m.blocks.find((b) => b.type === type) as Extract<PageModel['blocks'][number], { type: T }>;

// As in production: LIVE content for visitors, PREVIEW only in draft mode.
beforeAll(() => vi.stubEnv('NODE_ENV', 'production'));
afterAll(() => vi.unstubAllEnvs());

describe('the fixture brand with content routes', () => {
  it('is valid', () => expect(catalog.problems).toEqual([]));
});

describe('lists and pagination', () => {
  it("the blog index lists this brand's live articles, newest first, 5 a page", async () => {
    const m = await ok('/blog');
    const list = block(m, 'contentList');
    expect(list.data.items.map((i) => i.href)).toEqual([
      '/blog/money-basics/fixture-article-6',
      '/blog/money-basics/fixture-article-5',
      '/blog/payday-loans/fixture-article-4',
      '/blog/payday-loans/fixture-article-3',
      '/blog/payday-loans/fixture-article-2',
    ]);
    expect(list.data.pages).toEqual({
      current: 1,
      count: 2,
      links: [
        { label: '1', href: '/blog', current: true },
        { label: '2', href: '/blog/2', current: false },
      ],
    });
    expect(block(await ok('/blog/2'), 'contentList').data.items.map((i) => i.href)).toEqual([
      '/blog/payday-loans/fixture-article-1',
      '/blog/money-basics/fixture-hostile',
    ]);
  });
  it.each(['/blog/3', '/blog/payday-loans/2', '/blog/no-such-category', '/blog/title-loans', '/answers/2'])(
    '%s is a 404 (past the end, unknown or empty)',
    async (path) => {
      expect(await page(path)).toBe('notFound');
    },
  );
  it('a category page names the category', async () => {
    const m = await ok('/blog/payday-loans');
    expect(block(m, 'hero').heading).toBe('Payday loans');
    expect(m.title).toBe('Payday loans: guides from Acme Loans | Acme Loans');
    expect(block(m, 'contentList').data.items).toHaveLength(4);
  });
  it('a Canadian brand sees only content assigned to its market', async () => {
    const m = await ok('/blog', { brand: 'acmeca' });
    expect(block(m, 'contentList').data.items.map((i) => i.href)).toEqual(['/blog/money-basics/fixture-article-7']);
    expect(await page('/blog/payday-loans/fixture-article-1', { brand: 'acmeca' })).toBe('notFound');
  });
  it('tags, authors and the hub list their items', async () => {
    expect(block(await ok('/tag/apr'), 'contentList').data.items.map((i) => i.href)).toEqual([
      '/blog/money-basics/fixture-article-6',
      '/blog/payday-loans/fixture-article-4',
      '/blog/payday-loans/fixture-article-2',
    ]);
    expect(block(await ok('/author/other-author'), 'contentList').data.items.map((i) => i.href)).toEqual(['/blog/money-basics/fixture-article-6']);
    expect(block(await ok('/hub'), 'contentList').data.items.map((i) => i.href)).toEqual(['/hub/fixture-apr']);
    expect(block(await ok('/tag'), 'contentList').data.items.map((i) => i.href)).toEqual(['/tag/apr', '/tag/budgeting', '/tag/fees']);
  });
});

describe('items', () => {
  it('an article renders its body, author, category and tags, with Article, FAQ and breadcrumb structured data', async () => {
    const m = await ok('/blog/payday-loans/fixture-article-2');
    const body = block(m, 'contentBody').data;
    if (body.error) throw new Error('no body');
    expect(body.html).toContain('<h2>Section 2</h2>');
    expect(body.author).toEqual({ name: 'Tess Author', href: '/author/test-author' });
    expect(body.tags.map((t) => t.href)).toEqual(['/tag/apr', '/tag/fees']);
    expect(body.category).toEqual({ name: 'Payday loans', href: '/blog/payday-loans' });
    expect(m.canonical).toBe('https://acmeloans.com/blog/payday-loans/fixture-article-2');
    const types = m.jsonLd.map((d) => d['@type']);
    expect(types).toEqual(['Organization', 'Article', 'BreadcrumbList']);
  });
  it('an article under the wrong category is a 404', async () => {
    expect(await page('/blog/money-basics/fixture-article-2')).toBe('notFound');
  });
  it('drafts are hidden from visitors and shown in draft mode', async () => {
    expect(await page('/blog/payday-loans/fixture-draft')).toBe('notFound');
    const m = await ok('/blog/payday-loans/fixture-draft', { draftMode: true });
    expect(block(m, 'hero').heading).toBe('Draft article');
  });
  it('hostile markup in content never reaches the page model', async () => {
    const m = await ok('/blog/money-basics/fixture-hostile');
    const html = JSON.stringify(m);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<[^>]*\son(error|click)\s*=/i);
    expect(html).not.toMatch(/javascript:/i);
  });
  it('an answer page carries QAPage structured data', async () => {
    const m = await ok('/answers/fixture-answer');
    const qa = m.jsonLd.find((d) => d['@type'] === 'QAPage') as { mainEntity: { name: string; acceptedAnswer: { text: string } } };
    expect(qa.mainEntity.name).toBe('Does checking my options affect my credit score?');
    expect(qa.mainEntity.acceptedAnswer.text).toBe('No. Sending a request to compare options does not affect your score.');
  });
});

/** schema.org required (or, for Google's rich results, expected) properties, by type. */
const REQUIRED: Record<string, string[]> = {
  Organization: ['name', 'url', 'logo'],
  Article: ['headline', 'url', 'image.0', 'datePublished', 'dateModified', 'author.name', 'publisher.name', 'publisher.logo.url', 'description'],
  QAPage: ['mainEntity.name', 'mainEntity.answerCount', 'mainEntity.acceptedAnswer.text'],
  FAQPage: ['mainEntity.0.name', 'mainEntity.0.acceptedAnswer.text'],
  BreadcrumbList: ['itemListElement.0.position', 'itemListElement.0.name', 'itemListElement.0.item'],
};
const at = (o: unknown, path: string) => path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o);

describe("structured data has each type's required properties", () => {
  it.each(['/blog/payday-loans/fixture-article-2', '/answers/fixture-answer', '/hub/fixture-apr', '/blog'])('%s', async (path) => {
    const m = await ok(path);
    for (const d of m.jsonLd) {
      expect(d['@context']).toBe('https://schema.org');
      for (const prop of REQUIRED[d['@type'] as string] ?? []) expect(at(d, prop), `${String(d['@type'])}.${prop}`).toBeTruthy();
    }
  });
});

describe('faults', () => {
  const failing = (fail: (c: string) => boolean): ContentSource => ({
    kind: 'embedded',
    list: (c, q) => (fail(c) ? Promise.reject(new Error('service down')) : embedded.list(c, q)),
  });
  it('a failing secondary list shows the inline fallback and the page still renders, rebuilt soon', async () => {
    const m = await ok('/blog', { source: failing((c) => c === 'category') });
    const lists = m.blocks.filter((b) => b.type === 'contentList');
    expect(lists.map((l) => (l.type === 'contentList' ? !!l.data.error : null))).toEqual([false, true]);
    expect(m.revalidate).toBe(30);
  });
  it('a failing primary list throws (Next keeps the last good page or shows the error page)', async () => {
    await expect(page('/blog', { source: failing((c) => c === 'article') })).rejects.toThrow('service down');
  });
});

describe('the embedded store and the Strapi client give identical page models', () => {
  let server: RunningServer;
  let strapi: ContentSource;
  beforeAll(async () => {
    server = await startStrapiServer({ index, token: 't' });
    strapi = createStrapiClient({ url: server.url, token: 't' });
  });
  afterAll(() => server.close());
  it.each([
    '/blog',
    '/blog/2',
    '/blog/payday-loans',
    '/blog/payday-loans/fixture-article-2',
    '/answers',
    '/answers/fixture-answer',
    '/hub/fixture-apr',
    '/tag/fees',
    '/author/test-author',
    '/blog/nope',
  ])('%s', async (path) => {
    expect(await page(path, { source: strapi })).toEqual(await page(path, { source: embedded }));
  });
});

describe('a Strapi that sends its dates as DateTime, as Strapi v4 does', () => {
  let server: RunningServer;
  let strapi: ContentSource;
  beforeAll(async () => {
    const at = (d: string | null) => (d === null ? null : `${d}T09:30:00.000Z`);
    const entries = new Map(
      [...index.entries].map(([c, list]) => [
        c,
        list.map((e) => ({ ...e, attributes: { ...e.attributes, publishedAt: at(e.attributes.publishedAt), updatedAt: at(e.attributes.updatedAt)! } })),
      ]),
    );
    server = await startStrapiServer({ index: { entries, problems: [] }, token: 't' });
    strapi = createStrapiClient({ url: server.url, token: 't' });
  });
  afterAll(() => server.close());
  it.each(['/blog', '/blog/payday-loans/fixture-article-2', '/answers/fixture-answer', '/author/test-author'])(
    '%s shows the same dates as from the embedded store',
    async (path) => {
      expect(await page(path, { source: strapi })).toEqual(await page(path, { source: embedded }));
    },
  );
});

describe('a Strapi with two entries under one slug', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const articles = index.entries.get('article')!;
    const twin = { ...articles.find((e) => e.attributes.slug === 'fixture-article-6')!, id: 'article-fixture-article-6-again' };
    server = await startStrapiServer({ index: { entries: new Map([...index.entries, ['article', [twin, ...articles]]]), problems: [] }, token: 't' });
  });
  afterAll(() => server.close());
  it('lists the page once', async () => {
    const m = await ok('/blog', { source: createStrapiClient({ url: server.url, token: 't' }) });
    const hrefs = block(m, 'contentList').data.items.map((i) => i.href);
    expect(hrefs.filter((h) => h === '/blog/money-basics/fixture-article-6')).toHaveLength(1);
  });
});

describe('an article under a category that is not one (a CMS does not check)', () => {
  it('is not listed: its page is a 404', async () => {
    const articles = index.entries.get('article')!;
    const first = articles.find((e) => e.attributes.slug === 'fixture-article-6')!;
    const orphan = {
      id: 'article-orphan',
      attributes: { ...first.attributes, slug: 'orphan', category: 'no-such-category', url: '/blog/no-such-category/orphan' },
    };
    const source = createEmbeddedSource({ ...index, entries: new Map([...index.entries, ['article', [orphan, ...articles]]]) });
    expect(await page('/blog/no-such-category/orphan', { source })).toBe('notFound');
    for (const path of ['/blog', '/tag/apr', '/author/other-author']) {
      const hrefs = block(await ok(path, { source }), 'contentList').data.items.map((i) => i.href);
      expect(hrefs, path).not.toContain('/blog/no-such-category/orphan');
      expect(hrefs, path).toContain('/blog/money-basics/fixture-article-6');
    }
  });
});

describe('an article by an author whose page this brand does not show', () => {
  it('names the author without a link to a 404', async () => {
    const authors = index.entries
      .get('author')!
      .map((e) => (e.attributes.slug === 'other-author' ? { ...e, attributes: { ...e.attributes, brands: ['us'] } } : e));
    const source = createEmbeddedSource({ ...index, entries: new Map([...index.entries, ['author', authors]]) });
    expect(await page('/author/other-author', { source, brand: 'acmeca' })).toBe('notFound');
    const body = block(await ok('/blog/money-basics/fixture-article-7', { source, brand: 'acmeca' }), 'contentBody').data;
    if (body.error) throw new Error('no body');
    expect(body.author).toEqual({ name: 'Otto Other' });
    // where the author's page is shown, the byline links to it
    const us = block(await ok('/blog/money-basics/fixture-article-6', { source }), 'contentBody').data;
    expect(!us.error && us.author).toEqual({ name: 'Otto Other', href: '/author/other-author' });
  });
});

describe('topics without articles for the brand', () => {
  it('are left out of category and tag lists, and their pages are 404s', async () => {
    const ca = await ok('/blog', { brand: 'acmeca' });
    const topics = ca.blocks.filter((b) => b.type === 'contentList')[1];
    expect(topics?.type === 'contentList' && topics.data.items.map((i) => i.href)).toEqual(['/blog/money-basics']);
    expect(await page('/tag/budgeting', { brand: 'acmeca' })).not.toBe('notFound');
    expect(await page('/tag/vehicle', { brand: 'acmeca' })).toBe('notFound');
    const tags = block(await ok('/tag', { brand: 'acmeca' }), 'contentList');
    expect(tags.data.items.map((i) => i.href)).toEqual(['/tag/budgeting']);
  });
});

describe('a CMS whose collection is empty (nothing published yet)', () => {
  let server: RunningServer;
  let strapi: ContentSource;
  beforeAll(async () => {
    // nothing but the topics (which without articles are not listed either)
    const entries = new Map([...index.entries].map(([c, list]) => [c, c === 'category' || c === 'tag' ? list : []]));
    server = await startStrapiServer({ index: { entries, problems: [] }, token: 't' });
    strapi = createStrapiClient({ url: server.url, token: 't' });
  });
  afterAll(() => server.close());
  it('the list page still answers, saying so, and is kept out of search results; a later page is a 404', async () => {
    for (const path of ['/blog', '/answers']) {
      const m = await ok(path, { source: strapi });
      expect(m.status, path).toBe(200);
      expect(m.noindex, path).toBe(true);
      const list = block(m, 'contentList');
      expect(list.data.items, path).toEqual([]);
      expect(list.data.pages, path).toBeUndefined();
    }
    expect(await page('/blog/2', { source: strapi })).toBe('notFound');
    expect(await page('/answers/2', { source: strapi })).toBe('notFound');
  });
  it('an unpaginated list page (/hub, /tag, /author) answers the same way: empty, saying so, kept out of search results', async () => {
    for (const path of ['/hub', '/tag', '/author']) {
      const m = await ok(path, { source: strapi });
      expect(m.status, path).toBe(200);
      expect(m.noindex, path).toBe(true);
      expect(block(m, 'contentList').data.items, path).toEqual([]);
    }
  });
  it('a list page with something listed is indexed as before', async () => {
    for (const path of ['/blog', '/blog/2', '/hub', '/tag', '/author']) expect((await ok(path)).noindex, path).toBeUndefined();
  });
  it('an empty secondary list (guides by an author who has none) leaves its page indexed', async () => {
    const entries = new Map([...index.entries].map(([c, list]) => [c, c === 'article' ? [] : list]));
    const m = await ok('/author/test-author', { source: createEmbeddedSource({ ...index, entries }) });
    expect(block(m, 'contentList').data.items).toEqual([]);
    expect(m.noindex).toBeUndefined();
  });
});

describe('a list with entries left out among those it shows', () => {
  it('fills each page with what it shows and counts its pages by that', async () => {
    // the newest article under a category the CMS does not have: the six others make a full page 1 and one on page 2
    const articles = index.entries
      .get('article')!
      .map((e) =>
        e.attributes.slug === 'fixture-article-6'
          ? { ...e, attributes: { ...e.attributes, category: 'no-such-category', url: '/blog/no-such-category/fixture-article-6' } }
          : e,
      );
    const source = createEmbeddedSource({ ...index, entries: new Map([...index.entries, ['article', articles]]) });
    const first = block(await ok('/blog', { source }), 'contentList').data;
    expect(first.items.map((i) => i.href)).toEqual([
      '/blog/money-basics/fixture-article-5',
      '/blog/payday-loans/fixture-article-4',
      '/blog/payday-loans/fixture-article-3',
      '/blog/payday-loans/fixture-article-2',
      '/blog/payday-loans/fixture-article-1',
    ]);
    expect(first.pages?.count).toBe(2);
    expect(block(await ok('/blog/2', { source }), 'contentList').data.items.map((i) => i.href)).toEqual(['/blog/money-basics/fixture-hostile']);
    expect(await page('/blog/3', { source })).toBe('notFound');
  });
});

describe('a later list page whose entries are all left out (their category is not one)', () => {
  it('is a 404, not an empty page', async () => {
    // the two oldest articles, alone on /blog/2, under a category the CMS does not have
    const articles = index.entries
      .get('article')!
      .map((e) =>
        ['fixture-article-1', 'fixture-hostile'].includes(e.attributes.slug)
          ? { ...e, attributes: { ...e.attributes, category: 'no-such-category', url: `/blog/no-such-category/${e.attributes.slug}` } }
          : e,
      );
    const server = await startStrapiServer({ index: { entries: new Map([...index.entries, ['article', articles]]), problems: [] }, token: 't' });
    try {
      const source = createStrapiClient({ url: server.url, token: 't' });
      const first = block(await ok('/blog', { source }), 'contentList').data;
      expect(first.items).toHaveLength(5);
      // nor does page 1 link to it: the list has one page of what it shows
      expect(first.pages).toBeUndefined();
      expect(await page('/blog/2', { source })).toBe('notFound');
    } finally {
      await server.close();
    }
  });
});

describe('a CMS that always says there is another page of a list', () => {
  it('is read for at most 100 calls per list, and the list page still renders what it shows', async () => {
    // A proxy in front of the CMS that answers every page as the first and never says it is the last.
    let calls = 0;
    const liar = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', async () => {
        calls++;
        const ask = JSON.parse(body) as { query: string; variables?: { pagination?: { page?: number } } };
        if (ask.variables?.pagination) ask.variables.pagination.page = 1;
        const answer = JSON.stringify(await executeStrapiQuery(index, ask, { allowPreview: true })).replace(/"pageCount":\d+/g, '"pageCount":1000000');
        res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      });
    });
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    try {
      const source = createStrapiClient({ url: `http://127.0.0.1:${(liar.address() as AddressInfo).port}`, token: 't' });
      const list = block(await ok('/blog', { source }), 'contentList').data;
      expect(list.items.length).toBeGreaterThan(0);
      // the same entries on every page are one list, shown once each
      expect(new Set(list.items.map((i) => i.href)).size).toBe(list.items.length);
      expect(calls).toBeLessThanOrEqual(READ_ALL_MAX_CALLS + 20);
    } finally {
      await new Promise((resolve) => liar.close(resolve));
    }
  });
});

describe('a list page at an older address whose canonical address is the collection page (/knowledge-hub for /hub)', () => {
  const older = buildCatalog(
    [
      {
        file: 'brands/acme.json',
        text: acme.replace('"routes": [', '"routes": [\n    { "path": "/knowledge-hub", "layout": "content-hub", "canonical": "/hub" },'),
      },
    ],
    layouts,
    BLOCK_SPECS,
  );
  const at = (path: string, source: ContentSource) => buildPageModel(older, 'acme', path, { source, now });
  const noHubEntries = createEmbeddedSource({ ...index, entries: new Map([...index.entries, ['hub', []]]) });

  it('is valid', () => expect(older.problems).toEqual([]));
  it('shows nothing yet as the collection page does: saying so, kept out of search results', async () => {
    for (const path of ['/hub', '/knowledge-hub']) {
      const m = await at(path, noHubEntries);
      if (m === 'notFound') throw new Error(`${path} is not found`);
      expect(m.status, path).toBe(200);
      expect(m.noindex, path).toBe(true);
      expect(block(m, 'contentList').data.items, path).toEqual([]);
    }
  });
  it('with entries, is indexed and names the collection page as canonical; the sitemap lists only that', async () => {
    const m = await at('/knowledge-hub', embedded);
    if (m === 'notFound') throw new Error('/knowledge-hub is not found');
    expect(m.noindex).toBeUndefined();
    expect(m.canonical).toBe('https://acmeloans.com/hub');
    expect(block(m, 'contentList').data.items.map((i) => i.href)).toEqual(['/hub/fixture-apr']);
    const loaded = older.brands.get('acme')!;
    const listed = sitemapPaths(loaded, brandPaths(loaded), await contentPaths(loaded, embedded));
    expect(listed).toContain('/hub');
    expect(listed).not.toContain('/knowledge-hub');
  });
});
