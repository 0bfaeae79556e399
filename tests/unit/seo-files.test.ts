/**
 * robots.txt and sitemaps are built once and answered from memory after (engine/seoFiles.ts):
 * repeats, and requests that arrive together, cost no second build.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/catalog';
import { createEmbeddedSource } from '../../engine/content/embedded';
import { embeddedIndex } from '../../engine/content/service';
import { seoFile } from '../../engine/seoFiles';

const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts);
const content = createEmbeddedSource(embeddedIndex());
const loaded = catalog.brands.get('ipaydayloans')!;

describe('seoFile', () => {
  it('builds a sitemap once: a repeat is the same bytes from memory', async () => {
    const first = await seoFile(loaded, 'sitemap-0.xml', content);
    // A rebuild would be a new SeoFile (a new Buffer); the same object is the one kept in memory.
    const again = await seoFile(loaded, 'sitemap-0.xml', content);
    expect(again).toBe(first);
    expect(first!.body.toString('utf8')).toMatch(/^<\?xml[^]*<urlset[^]*<loc>https:\/\//);
    expect(first!.etag).toMatch(/^"[\w-]+"$/);
  }, 60_000);

  it('requests that arrive together wait for one build', async () => {
    // Each build makes its own SeoFile: eight requests answered with one object were served by one build.
    const files = await Promise.all(Array.from({ length: 8 }, () => seoFile(loaded, 'sitemap-1.xml', content)));
    expect(files[0]).toBeDefined();
    expect(new Set(files).size).toBe(1);
  }, 60_000);

  it('robots.txt and the index once each; a sitemap past the last, or any other name, is none', async () => {
    for (const name of ['robots.txt', 'sitemap.xml']) {
      const one = await seoFile(loaded, name, content);
      expect(await seoFile(loaded, name, content)).toBe(one);
    }
    expect(await seoFile(loaded, 'sitemap-999.xml', content)).toBeUndefined();
    expect(await seoFile(loaded, 'sitemap-01.xml', content)).toBeUndefined();
    expect(await seoFile(loaded, 'other.xml', content)).toBeUndefined();
  }, 60_000);
});
