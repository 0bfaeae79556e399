import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { createEmbeddedSource, loadContent, type ContentIndex } from '../../engine/content/embedded';
import type { ContentSource, Entry } from '../../engine/content/types';
import { buildCatalog, readSources, type Catalog } from '../../engine/site/catalog';
import type { PageModel } from '../../engine/site/model';
import { buildPageModel } from '../../engine/site/pageModel';
import { createSeoFiles, SEO_FILES_MEMORY_BYTES } from '../../engine/site/seo/seoFiles';
import { withContentRoutes } from '../fixtures/content-routes';

/** The acme fixture with the content routes, and `more` added to the brand document (e.g. disabledPaths). */
function catalogOf(more: Record<string, unknown> = {}): Catalog {
  const doc = { ...JSON.parse(withContentRoutes(readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8'))), ...more } as Record<string, unknown>;
  const layouts = readSources().layouts.filter((l) => l.file.includes('/content-'));
  return buildCatalog([{ file: 'brands/acme.json', text: JSON.stringify(doc, null, 2) }], layouts, BLOCK_SPECS);
}

const index = loadContent(join(__dirname, '../fixtures/content'));
/** The fixture content with its articles as `change` makes them. */
const withArticles = (change: (articles: Entry[]) => Entry[]): ContentSource =>
  createEmbeddedSource({ ...index, entries: new Map([...index.entries, ['article', change(index.entries.get('article')!)]]) } satisfies ContentIndex);
const newestArticle = () => index.entries.get('article')!.find((e) => e.attributes.slug === 'fixture-article-6')!;

const now = new Date('2026-11-21T12:00:00Z');
const page = (catalog: Catalog, path: string, source: ContentSource) => buildPageModel(catalog, 'acme', path, { source, now });
async function listed(catalog: Catalog, path: string, source: ContentSource): Promise<string[]> {
  const m = await page(catalog, path, source);
  if (m === 'notFound') throw new Error(`${path} is not found`);
  const list = m.blocks.find((b) => b.type === 'contentList') as Extract<PageModel['blocks'][number], { type: 'contentList' }>;
  return list.data.items.map((i) => i.href);
}
/** The paths the brand's sitemap file lists, as the SEO route serves it. */
async function sitemap(catalog: Catalog, source: ContentSource): Promise<string[]> {
  const store = createSeoFiles({ dir: mkdtempSync(join(tmpdir(), 'tag-sitemap-')), memoryBytes: SEO_FILES_MEMORY_BYTES });
  const xml = (await store.seoFile(catalog.brands.get('acme')!, 'sitemap-0.xml', source))!.body.toString('utf8');
  return [...xml.matchAll(/<loc>https:\/\/acmeloans\.com([^<]*)<\/loc>/g)].map((m) => m[1]!);
}

// As in production: LIVE content for visitors.
beforeAll(() => vi.stubEnv('NODE_ENV', 'production'));
afterAll(() => vi.unstubAllEnvs());

describe('a tag whose only guide for the brand is under a category that is not one (a CMS does not check)', () => {
  const catalog = catalogOf();
  // the brand's one guide tagged "scams": its page, under no category, is a 404
  const source = withArticles((articles) => [
    ...articles,
    {
      id: 'article-orphan',
      attributes: {
        ...newestArticle().attributes,
        slug: 'orphan',
        category: 'no-such-category',
        url: '/blog/no-such-category/orphan',
        extras: { tags: ['scams'] },
      },
    },
  ]);

  it('the fixture brand is valid', () => expect(catalog.problems).toEqual([]));
  it('has no page: a 404, as a tag without guides is', async () => {
    expect(await page(catalog, '/blog/no-such-category/orphan', source)).toBe('notFound');
    expect(await page(catalog, '/tag/scams', source)).toBe('notFound');
  });
  it('is left out of the topic index, and the tags with guides stay', async () => {
    expect(await listed(catalog, '/tag', source)).toEqual(['/tag/apr', '/tag/budgeting', '/tag/fees']);
  });
  it('is left out of the sitemap, and the tags with guides stay', async () => {
    const paths = await sitemap(catalog, source);
    expect(paths).not.toContain('/tag/scams');
    expect(paths).toEqual(expect.arrayContaining(['/tag', '/tag/apr', '/tag/budgeting', '/tag/fees']));
  });
  it('a tag with a guide page is unaffected', async () => {
    expect(await listed(catalog, '/tag/apr', source)).toEqual([
      '/blog/money-basics/fixture-article-6',
      '/blog/payday-loans/fixture-article-4',
      '/blog/payday-loans/fixture-article-2',
    ]);
  });
});

describe("a tag whose only guide has no page on the brand (the brand's disabledPaths take its path)", () => {
  const catalog = catalogOf({ disabledPaths: ['/blog/money-basics/fixture-article-6'] });
  // the newest guide, tagged apr and fees like others and alone tagged "scams"
  const source = withArticles((articles) =>
    articles.map((e) =>
      e.attributes.slug === 'fixture-article-6'
        ? { ...e, attributes: { ...e.attributes, extras: { ...e.attributes.extras, tags: ['apr', 'fees', 'scams'] } } }
        : e,
    ),
  );

  it('the fixture brand is valid', () => expect(catalog.problems).toEqual([]));
  it('has no page: a 404', async () => {
    expect(await page(catalog, '/blog/money-basics/fixture-article-6', source)).toBe('notFound');
    expect(await page(catalog, '/tag/scams', source)).toBe('notFound');
  });
  it('is left out of the topic index', async () => {
    expect(await listed(catalog, '/tag', source)).toEqual(['/tag/apr', '/tag/budgeting', '/tag/fees']);
  });
  it('is left out of the sitemap', async () => {
    const paths = await sitemap(catalog, source);
    expect(paths).not.toContain('/tag/scams');
    expect(paths).not.toContain('/blog/money-basics/fixture-article-6');
    expect(paths).toEqual(expect.arrayContaining(['/tag', '/tag/apr', '/tag/fees']));
  });
  it('a tag with other guide pages keeps its page, listing only the guides that have one', async () => {
    expect(await listed(catalog, '/tag/apr', source)).toEqual(['/blog/payday-loans/fixture-article-4', '/blog/payday-loans/fixture-article-2']);
    expect(await listed(catalog, '/blog', source)).not.toContain('/blog/money-basics/fixture-article-6');
  });
});

describe('tag pages at an older address whose canonical address is /tag/{slug}', () => {
  const doc = JSON.parse(withContentRoutes(readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8'))) as { routes: unknown[] };
  const layouts = readSources().layouts.filter((l) => l.file.includes('/content-'));
  const catalog = buildCatalog(
    [
      {
        file: 'brands/acme.json',
        text: JSON.stringify({ ...doc, routes: [...doc.routes, { path: '/topics/{slug}', layout: 'content-tag', content: 'tag', canonical: '/tag/{slug}' }] }),
      },
    ],
    layouts,
    BLOCK_SPECS,
  );
  const source = createEmbeddedSource(index);

  it('the fixture brand is valid', () => expect(catalog.problems).toEqual([]));
  it('are in the sitemap once, at the canonical address', async () => {
    const m = await page(catalog, '/topics/apr', source);
    expect(m !== 'notFound' && m.canonical).toBe('https://acmeloans.com/tag/apr');
    const paths = await sitemap(catalog, source);
    expect(paths).toEqual(expect.arrayContaining(['/tag/apr', '/tag/budgeting', '/tag/fees']));
    expect(paths.filter((p) => p.startsWith('/topics/'))).toEqual([]);
  });
});
