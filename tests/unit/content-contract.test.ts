/**
 * The Strapi client against a real GraphQL server started here, serving fixture content
 * through the Strapi-v4-shaped schema; and the embedded store answering the same queries.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedSource, loadContent } from '../../engine/content/embedded';
import { createStrapiClient, listByCategory } from '../../engine/content/strapi';
import { ContentError, TimeoutError, type ListQuery } from '../../engine/content/types';
import { startStrapiServer, type RunningServer } from '../support/strapi-server';

const index = loadContent(join(__dirname, '../fixtures/content'));
const embedded = createEmbeddedSource(index);
const TOKEN = 'contract-token';
let server: RunningServer;
let strapi: ReturnType<typeof createStrapiClient>;

beforeAll(async () => {
  server = await startStrapiServer({ index, token: TOKEN });
  strapi = createStrapiClient({ url: server.url, token: TOKEN });
});
afterAll(() => server.close());

const us = { id: 'ipaydayloans', market: 'us' as const };

describe('fixture content', () => {
  it('loads without problems', () => expect(index.problems).toEqual([]));
});

describe('pagination arithmetic', () => {
  it.each([
    [{ page: 1, pageSize: 3 }, 3, { total: 7, page: 1, pageSize: 3, pageCount: 3 }],
    [{ page: 3, pageSize: 3 }, 1, { total: 7, page: 3, pageSize: 3, pageCount: 3 }],
    [{ page: 4, pageSize: 3 }, 0, { total: 7, page: 4, pageSize: 3, pageCount: 3 }],
    [{ page: 1, pageSize: 7 }, 7, { total: 7, page: 1, pageSize: 7, pageCount: 1 }],
  ])('%j', async (pagination, count, meta) => {
    const r = await strapi.list('article', { pagination, filters: { brand: us } });
    expect(r.data).toHaveLength(count);
    expect(r.meta.pagination).toEqual(meta);
  });
});

describe('filters, sort and publication state', () => {
  const slugs = async (q: ListQuery) => (await strapi.list('article', q)).data.map((e) => e.attributes.slug);
  it('brand: market group and brand id', async () => {
    expect(await slugs({ filters: { brand: { id: 'weloans', market: 'ca' } } })).toEqual(['fixture-article-7']);
    expect(await slugs({ filters: { brand: us } })).toContain('fixture-hostile');
    expect(await slugs({ filters: { brand: { id: 'usbadcreditloans', market: 'us' } } })).not.toContain('fixture-hostile');
  });
  it('category, tag and author', async () => {
    expect(await slugs({ filters: { category: 'payday-loans' } })).toEqual([
      'fixture-article-4',
      'fixture-article-3',
      'fixture-article-2',
      'fixture-article-1',
    ]);
    expect(await slugs({ filters: { tag: 'apr' } })).toEqual(['fixture-article-6', 'fixture-article-4', 'fixture-article-2']);
    expect(await slugs({ filters: { author: 'other-author' } })).toEqual(['fixture-article-7', 'fixture-article-6']);
    expect(await slugs({ filters: { slug: 'fixture-article-5' } })).toEqual(['fixture-article-5']);
  });
  it('sorts newest first by default, and by title when asked', async () => {
    const newest = await slugs({ filters: { brand: us } });
    expect(newest[0]).toBe('fixture-article-6');
    expect(newest.at(-1)).toBe('fixture-hostile');
    const byTitle = (await strapi.list('article', { sort: ['title:asc'], filters: { brand: us } })).data.map((e) => e.attributes.title);
    expect(byTitle).toEqual([...byTitle].sort());
  });
  it('LIVE hides drafts; PREVIEW shows them', async () => {
    expect(await slugs({ publicationState: 'LIVE' })).not.toContain('fixture-draft');
    expect(await slugs({ publicationState: 'PREVIEW' })).toContain('fixture-draft');
    const draft = (await strapi.list('article', { publicationState: 'PREVIEW', filters: { slug: 'fixture-draft' } })).data[0]!;
    expect(draft.attributes.publishedAt).toBeNull();
  });
  it('serves every collection: answers, hub, authors, categories, tags', async () => {
    expect((await strapi.list('answer', {})).data.map((e) => e.attributes.url)).toEqual(['/answers/fixture-answer']);
    expect((await strapi.list('hub', {})).data.map((e) => e.attributes.url)).toEqual(['/hub/fixture-apr']);
    expect((await strapi.list('author', { sort: ['title:asc'] })).data.map((e) => e.attributes.h1)).toEqual(['Otto Other', 'Tess Author']);
    expect((await strapi.list('category', { pagination: { page: 1, pageSize: 100 } })).meta.pagination.total).toBe(6);
    expect((await strapi.list('tag', { filters: { slug: 'apr' } })).data[0]!.attributes.url).toBe('/tag/apr');
  });
});

describe('the embedded store and the Strapi client return the same results', () => {
  const queries: [string, ListQuery][] = [
    ['article', { filters: { brand: us }, pagination: { page: 2, pageSize: 2 } }],
    ['article', { filters: { category: 'money-basics' }, publicationState: 'PREVIEW' }],
    ['answer', { filters: { brand: us } }],
    ['hub', { filters: { slug: 'fixture-apr' } }],
    ['author', { sort: ['title:asc'] }],
    ['tag', { pagination: { page: 1, pageSize: 4 } }],
  ];
  it.each(queries)('%s %j', async (collection, query) => {
    const c = collection as Parameters<typeof strapi.list>[0];
    expect(await strapi.list(c, query)).toEqual(await embedded.list(c, query));
  });
});

describe('faults give clear errors', () => {
  it('a slow server hits the time-out with TimeoutError "Timeout of {n}ms."', async () => {
    server.setMode('slow', 800);
    const fast = createStrapiClient({ url: server.url, token: TOKEN, timeoutMs: 200 });
    const err = await fast.list('article', {}).catch((e: unknown) => e);
    server.setMode('ok');
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).name).toBe('TimeoutError');
    expect((err as Error).message).toBe('Timeout of 200ms.');
  });
  it('content that came in time while this process was busy is read, not a time-out', async () => {
    const quick = createStrapiClient({ url: server.url, token: TOKEN, timeoutMs: 300 });
    const before = server.requests;
    const listing = quick.list('article', { pagination: { page: 1, pageSize: 3 }, filters: { brand: us } });
    // the server has the query and has answered; the answer is not read yet
    while (server.requests === before) await new Promise((r) => setImmediate(r));
    const until = Date.now() + 900;
    while (Date.now() < until); // the event loop is held past the client's 300 ms
    const r = await listing;
    expect(r.meta.pagination).toEqual({ total: 7, page: 1, pageSize: 3, pageCount: 3 });
    expect(server.requests).toBe(before + 1);
  });
  it('the default CMS client time-out is 2000 ms', async () => {
    server.setMode('slow', 2600);
    const err = await strapi.list('article', {}).catch((e: unknown) => e);
    server.setMode('ok');
    expect((err as Error).message).toBe('Timeout of 2000ms.');
  }, 10_000);
  it('HTTP 500', async () => {
    server.setMode('error');
    await expect(strapi.list('article', {})).rejects.toThrow(new ContentError('Content service answered HTTP 500'));
    server.setMode('ok');
  });
  it('malformed JSON', async () => {
    server.setMode('garbage');
    await expect(strapi.list('article', {})).rejects.toThrow(new ContentError('Content service sent a response that is not JSON'));
    server.setMode('ok');
  });
  it('a wrong token', async () => {
    const wrong = createStrapiClient({ url: server.url, token: 'nope' });
    await expect(wrong.list('article', {})).rejects.toThrow(new ContentError('Content service answered HTTP 401'));
  });
  it('a server that is down', async () => {
    const down = createStrapiClient({ url: 'http://127.0.0.1:9/graphql', token: TOKEN });
    await expect(down.list('article', {})).rejects.toThrow(/^Content service could not be reached/);
  });
  it('a category query without categoryName', () => {
    expect(() => listByCategory(strapi, {})).toThrow(new ContentError('categoryName is not defined'));
  });
});

describe('browser-side content address', () => {
  it("is this site's own endpoint in local mode and the public CMS address when deployed", async () => {
    const { browserContentUrl } = await import('../../engine/content/service');
    expect(browserContentUrl({})).toBe('/api/content/graphql');
    expect(browserContentUrl({ NEXT_PUBLIC_CONTENT_GRAPHQL_URL: 'https://cms.example.com/graphql' })).toBe('https://cms.example.com/graphql');
  });
});

describe('entries as a Strapi sends them', () => {
  /** A server that answers every query with `entries`, as a Strapi whose optional fields are left null would. */
  const answering = async (entries: unknown[]) => {
    const { createServer } = await import('node:http');
    const srv = createServer((req, res) => {
      req.resume().on('end', () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            data: { articleLists: { data: entries, meta: { pagination: { total: entries.length, page: 1, pageSize: 25, pageCount: 1 } } } },
          }),
        ),
      );
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const { port } = srv.address() as { port: number };
    return { client: createStrapiClient({ url: `http://127.0.0.1:${port}/graphql`, token: TOKEN }), close: () => new Promise((r) => srv.close(r)) };
  };
  const attributes = {
    url: '/blog/payday-loans/a',
    slug: 'a',
    h1: 'Heading',
    title: 'Title',
    description: 'About it',
    category: 'payday-loans',
    extras: null,
    brands: ['us'],
  };

  it('DateTime values are read as the day they name; a date that is not one is left out', async () => {
    const s = await answering([
      { id: '1', attributes: { ...attributes, publishedAt: '2025-12-01T09:30:00.000Z', updatedAt: '2025-12-03T23:59:59.999Z' } },
      { id: '2', attributes: { ...attributes, slug: 'b', publishedAt: 'not a date', updatedAt: '2025-02-30' } },
    ]);
    const [a, b] = (await s.client.list('article', {})).data;
    await s.close();
    expect([a!.attributes.publishedAt, a!.attributes.updatedAt]).toEqual(['2025-12-01', '2025-12-03']);
    expect([b!.attributes.publishedAt, b!.attributes.updatedAt]).toEqual([null, '']);
  });

  it('an entry whose slug no page address can have (upper case, underscore, accents) is left out, not listed as a dead link', async () => {
    const entry = (slug: string) => ({
      id: slug,
      attributes: { ...attributes, slug, url: `/blog/payday-loans/${slug}`, publishedAt: '2025-12-01', updatedAt: '2025-12-01' },
    });
    const s = await answering(['how-apr-works', 'Upper-Case', 'under_score', 'café', 'trailing-', '2024'].map(entry));
    const { data } = await s.client.list('article', {});
    await s.close();
    expect(data.map((e) => e.attributes.slug)).toEqual(['how-apr-works']);
  });

  it("an entry's link is its page's address, never a url the CMS wrote elsewhere (off the site, javascript:, another section)", async () => {
    const s = await answering(
      ['https://evil.example/phish', 'javascript:alert(1)', '//evil.example/x', '/blog/other-category/a', null].map((url, i) => ({
        id: String(i),
        attributes: { ...attributes, slug: `a${i}`, url, publishedAt: '2025-12-01', updatedAt: '2025-12-01' },
      })),
    );
    const { data } = await s.client.list('article', {});
    await s.close();
    expect(data.map((e) => e.attributes.url)).toEqual([0, 1, 2, 3, 4].map((i) => `/blog/payday-loans/a${i}`));
  });

  it('a null heading, title or description never reads "null"; an entry with nothing to show is left out', async () => {
    const s = await answering([
      { id: '1', attributes: { ...attributes, h1: null, description: null, publishedAt: '2025-12-01', updatedAt: '2025-12-01' } },
      { id: '2', attributes: { ...attributes, slug: 'b', title: null, brands: null, publishedAt: '2025-12-01', updatedAt: null } },
      { id: '3', attributes: { ...attributes, slug: 'c', h1: null, title: null, publishedAt: '2025-12-01', updatedAt: '2025-12-01' } },
      { id: '4', attributes: { ...attributes, slug: 'd', category: null, publishedAt: '2025-12-01', updatedAt: '2025-12-01' } },
    ]);
    const { data } = await s.client.list('article', {});
    await s.close();
    expect(data.map((e) => e.attributes.slug)).toEqual(['a', 'b']);
    expect(data.map(({ attributes: { h1, title, description, brands, updatedAt } }) => ({ h1, title, description, brands, updatedAt }))).toEqual([
      { h1: 'Title', title: 'Title', description: '', brands: ['us'], updatedAt: '2025-12-01' },
      { h1: 'Heading', title: 'Heading', description: 'About it', brands: [], updatedAt: '2025-12-01' },
    ]);
  });
});
