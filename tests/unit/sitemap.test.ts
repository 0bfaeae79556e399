import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../engine/site/catalog';
import { allCitiesByName, citiesOf, distinctCitySlugs } from '../../engine/geo/cities';
import { cityPageCount } from '../../engine/site/directory';
import { matchPath } from '../../engine/site/pageMatch';
import { createEmbeddedSource, loadContent, type ContentIndex } from '../../engine/content/embedded';
import { createSeoFiles, SEO_FILES_MEMORY_BYTES } from '../../engine/site/seo/seoFiles';
import { brandPaths, robotsDisallows, robotsTxt, ROBOTS_ALLOWED, SITEMAP_MAX_URLS } from '../../engine/site/seo/sitemap';
import { organizationJsonLd } from '../../engine/site/seo/seo';
import { LOGO_PATH } from '../../engine/console/logoUpload';
import { STATES } from '../../engine/geo/states';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const acme = readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8');
/** The fixture with more schemes: every city by {cityState}, every distinct slug by {city}, letter pages. */
const big = acme.replace(
  '{ "path": "/location/{stateCode}/{city}", "layout": "state" }',
  `{ "path": "/location/{stateCode}/{city}", "layout": "state" },
    { "path": "/c/{cityState}", "layout": "state" },
    { "path": "/{loanType}/{city}", "layout": "state" },
    { "path": "/letters/{letter}/{page?}", "layout": "home" },
    { "path": "/blog/{list}", "layout": "home" }`,
);
const catalog = buildCatalog([{ file: 'brands/acme.json', text: big }], [], BLOCK_SPECS);
const loaded = catalog.brands.get('acme')!;

describe('brandPaths', () => {
  it('the fixture with more schemes is valid', () => {
    expect(catalog.problems).toEqual([]);
  });
  const paths = brandPaths(loaded);
  it('lists every page once, and every one resolves', () => {
    expect(new Set(paths).size).toBe(paths.length);
    for (const p of paths) expect(matchPath(loaded, p), p).toBeDefined();
  }, 60_000);
  it('has every state, every city of every state, every city-state slug and every letter page', () => {
    const set = new Set(paths);
    for (const s of STATES) expect(set.has(`/location/${s.code}`)).toBe(true);
    const cityPages = STATES.reduce((n, s) => n + citiesOf(s.code).length, 0);
    expect(paths.filter((p) => /^\/location\/[a-z]{2}\/.+/.test(p))).toHaveLength(cityPages);
    expect(paths.filter((p) => p.startsWith('/c/'))).toHaveLength(allCitiesByName().length);
    // {loanType}/{city}: each distinct city slug once per loan type (2 loan types in the fixture).
    expect(paths.filter((p) => /^\/(payday-loans|installment-loans)\/[^/]+$/.test(p))).toHaveLength(2 * distinctCitySlugs().length);
    expect(set.has('/letters/s')).toBe(true);
    expect(set.has(`/letters/s/${cityPageCount('s')}`)).toBe(true);
    expect(set.has(`/letters/s/${cityPageCount('s') + 1}`)).toBe(false);
    expect(set.has('/letters/s/1')).toBe(false);
  });
  it('leaves out routes whose values come from content ({list}) and the brand 404', () => {
    expect(paths.some((p) => p.startsWith('/blog/'))).toBe(false);
    expect(paths).not.toContain('/_404');
  });

  it('splits into sitemaps of at most 50,000 URLs listed by the index', async () => {
    // the files the SEO route serves, for a brand without content pages
    const noContent = createEmbeddedSource(loadContent(mkdtempSync(join(tmpdir(), 'no-content-'))));
    const store = createSeoFiles({ dir: mkdtempSync(join(tmpdir(), 'seo-files-')), memoryBytes: SEO_FILES_MEMORY_BYTES });
    const file = async (name: string) => (await store.seoFile(loaded, name, noContent))?.body.toString('utf8');
    const count = Math.ceil(paths.length / SITEMAP_MAX_URLS);
    expect(count).toBeGreaterThan(1);
    const index = (await file('sitemap.xml'))!;
    expect(index.match(/<sitemap>/g)).toHaveLength(count);
    for (let i = 0; i < count; i++) expect(index).toContain(`<loc>https://acmeloans.com/sitemaps/${i}.xml</loc>`);
    let total = 0;
    for (let i = 0; i < count; i++) {
      const locs = (await file(`sitemap-${i}.xml`))!.match(/<loc>/g)!.length;
      expect(locs).toBeLessThanOrEqual(SITEMAP_MAX_URLS);
      total += locs;
    }
    // every page but the application form, which robots.txt keeps crawlers off
    expect(total).toBe(paths.length - 1);
    expect(await file(`sitemap-${count}.xml`)).toBeUndefined();
    expect(await file('sitemap--1.xml')).toBeUndefined();
    expect(await file('sitemap-0.xml')).toContain('<loc>https://acmeloans.com/</loc>');
  }, 60_000);
});

describe('robots.txt', () => {
  it('points at the sitemap index on the primary host and keeps crawlers off the apply page', () => {
    expect(robotsTxt(loaded)).toBe(
      'User-agent: *\nAllow: /\nAllow: /api/brand-logo/\nDisallow: /apply\nDisallow: /api/\n\nSitemap: https://acmeloans.com/sitemap.xml\n',
    );
  });

  it('lets crawlers fetch a logo uploaded in the studio, which the structured data names', () => {
    expect(ROBOTS_ALLOWED).toEqual([LOGO_PATH]);
    const logo = `${LOGO_PATH}0123456789abcdef0123456789abcdef.svg`;
    const org = organizationJsonLd({ ...loaded.brand, organization: { ...loaded.brand.organization, logo } });
    const logoPath = new URL(org.logo as string).pathname;
    expect(robotsDisallows(loaded, logoPath)).toBe(false);
    // what a crawler reads: the longest matching rule decides, Allow winning a tie (RFC 9309 §2.2.2)
    const rules = [...robotsTxt(loaded).matchAll(/^(Allow|Disallow): (.+)$/gm)].map((m) => ({ allow: m[1] === 'Allow', path: m[2]! }));
    const decisive = rules.filter((r) => logoPath.startsWith(r.path)).sort((a, b) => b.path.length - a.path.length || Number(b.allow) - Number(a.allow))[0]!;
    expect(decisive).toEqual({ allow: true, path: LOGO_PATH });
    expect(robotsDisallows(loaded, '/api/leads')).toBe(true);
    expect(robotsDisallows(loaded, '/apply')).toBe(true);
    expect(robotsDisallows(loaded, '/payday-loans')).toBe(false);
  });

  it('the sitemaps list no URL robots.txt disallows', async () => {
    const small = buildCatalog([{ file: 'brands/acme.json', text: acme }], [], BLOCK_SPECS).brands.get('acme')!;
    expect(brandPaths(small)).toContain('/apply');
    const noContent = createEmbeddedSource(loadContent(mkdtempSync(join(tmpdir(), 'no-content-'))));
    const store = createSeoFiles({ dir: mkdtempSync(join(tmpdir(), 'seo-files-')), memoryBytes: SEO_FILES_MEMORY_BYTES });
    const sitemap = (await store.seoFile(small, 'sitemap-0.xml', noContent))!.body.toString('utf8');
    const disallowed = [...robotsTxt(small).matchAll(/^Disallow: (.+)$/gm)].map((m) => m[1]!);
    expect(disallowed).toEqual(['/apply', '/api/']);
    const listed = [...sitemap.matchAll(/<loc>https:\/\/acmeloans\.com([^<]*)<\/loc>/g)].map((m) => m[1]!);
    expect(listed).toContain('/payday-loans');
    expect(listed.filter((path) => disallowed.some((rule) => path.startsWith(rule)))).toEqual([]);
  });
});

describe('content pages in the sitemap', () => {
  /** The content paths of acme with the content routes, over the fixture CMS with its entries as `change` makes them. */
  async function contentSitemap(change: (entries: ContentIndex['entries']) => ContentIndex['entries']) {
    const { withContentRoutes } = await import('../fixtures/content-routes');
    const { readSources } = await import('../../engine/site/catalog');
    const { contentPaths } = await import('../../engine/site/seo/sitemap');
    const layouts = readSources().layouts.filter((l) => l.file.includes('/content-'));
    const loaded = buildCatalog([{ file: 'brands/acme.json', text: withContentRoutes(acme) }], layouts, BLOCK_SPECS).brands.get('acme')!;
    const index = loadContent(join(__dirname, '../fixtures/content'));
    return { loaded, paths: await contentPaths(loaded, createEmbeddedSource({ ...index, entries: change(index.entries) })) };
  }

  it('leaves out an article whose category is not one (its page and the category page are 404s)', async () => {
    const { loaded, paths } = await contentSitemap((entries) => {
      const articles = entries.get('article')!;
      const first = articles.find((e) => e.attributes.slug === 'fixture-article-1')!;
      // as a CMS can send it: the embedded store refuses such a file, Strapi does not
      const orphan = {
        id: 'article-orphan',
        attributes: { ...first.attributes, slug: 'orphan', category: 'no-such-category', url: '/blog/no-such-category/orphan' },
      };
      return new Map([...entries, ['article', [...articles, orphan]]]);
    });
    expect(paths.filter((p) => p.includes('no-such-category'))).toEqual([]);
    expect(paths).toContain('/blog/payday-loans/fixture-article-1');
    for (const p of paths.filter((p) => p.startsWith('/blog/'))) expect(matchPath(loaded, p), p).toBeTruthy();
  });

  it('leaves out a list page with nothing listed yet (it is noindex), and keeps the other content pages', async () => {
    const { paths } = await contentSitemap((entries) => new Map([...entries].map(([k, list]) => [k, k === 'answer' ? [] : list])));
    expect(paths.filter((p) => p.startsWith('/answers'))).toEqual([]);
    expect(paths).toContain('/blog');
    expect(paths).toContain('/hub/fixture-apr');
  });

  it('leaves every list page that shows nothing yet out of the sitemap, paginated or not (/blog, /answers, /hub, /tag, /author)', async () => {
    const { sitemapPaths } = await import('../../engine/site/seo/sitemap');
    const lists = ['/blog', '/answers', '/hub', '/tag', '/author'];
    const { loaded, paths: content } = await contentSitemap(
      (entries) => new Map([...entries].map(([k, list]) => [k, k === 'category' || k === 'tag' ? list : []])),
    );
    // what the sitemap file lists: the route pages and the content pages together
    const listed = sitemapPaths(loaded, brandPaths(loaded), content);
    expect(listed.filter((p) => lists.includes(p))).toEqual([]);
    expect(listed).toContain('/payday-loans');
    const full = await contentSitemap((entries) => entries);
    expect(sitemapPaths(full.loaded, brandPaths(full.loaded), full.paths).filter((p) => lists.includes(p))).toEqual(lists);
  });

  it('lists a later blog page only when it shows an article (entries left out do not count)', async () => {
    // the two oldest articles, alone on /blog/2, under a category the CMS does not have
    const { paths } = await contentSitemap((entries) => {
      const articles = entries
        .get('article')!
        .map((e) =>
          ['fixture-article-1', 'fixture-hostile'].includes(e.attributes.slug)
            ? { ...e, attributes: { ...e.attributes, category: 'no-such-category', url: `/blog/no-such-category/${e.attributes.slug}` } }
            : e,
        );
      return new Map([...entries, ['article', articles]]);
    });
    expect(paths).toContain('/blog');
    expect(paths).not.toContain('/blog/2');
  });

  it('lists every live content page of the brand and nothing else', async () => {
    const { withContentRoutes } = await import('../fixtures/content-routes');
    const { readSources } = await import('../../engine/site/catalog');
    const { createEmbeddedSource, loadContent } = await import('../../engine/content/embedded');
    const { contentPaths } = await import('../../engine/site/seo/sitemap');
    const layouts = readSources().layouts.filter((l) => l.file.includes('/content-'));
    const c = buildCatalog([{ file: 'brands/acme.json', text: withContentRoutes(acme) }], layouts, BLOCK_SPECS);
    const source = createEmbeddedSource(loadContent(join(__dirname, '../fixtures/content')));
    const paths = await contentPaths(c.brands.get('acme')!, source);
    expect(paths.sort()).toEqual(
      [
        '/answers',
        '/author',
        '/author/other-author',
        '/author/test-author',
        '/blog',
        '/blog/2',
        '/blog/money-basics',
        '/blog/money-basics/fixture-article-5',
        '/blog/money-basics/fixture-article-6',
        '/blog/money-basics/fixture-hostile',
        '/blog/payday-loans',
        '/blog/payday-loans/fixture-article-1',
        '/blog/payday-loans/fixture-article-2',
        '/blog/payday-loans/fixture-article-3',
        '/blog/payday-loans/fixture-article-4',
        '/hub',
        '/hub/fixture-apr',
        '/answers/fixture-answer',
        '/tag',
        '/tag/apr',
        '/tag/budgeting',
        '/tag/fees',
      ].sort(),
    );
  });
});
