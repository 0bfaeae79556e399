/**
 * A page's <title> is its layout's title and the site's name once (engine/site/resolve.ts adds
 * " | {pageTitle}"): a layout that writes the name too gives "Topics | WeLoans | WeLoans".
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { createEmbeddedSource, embeddedIndex } from '../../engine/content/embedded';
import { buildPageModel } from '../../engine/site/pageModel';
import { SAMPLE_NOW, samplePaths } from '../support/pageSamples';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
const source = createEmbeddedSource(embeddedIndex());

describe('page titles', () => {
  for (const [id, loaded] of catalog.brands)
    it(`${id}: every sample page names the site once`, async () => {
      const site = loaded.brand.config.pageTitle;
      const twice: string[] = [];
      for (const path of await samplePaths(loaded, source)) {
        const model = await buildPageModel(catalog, id, path, { source, now: SAMPLE_NOW });
        if (model !== 'notFound' && model.title.split(' | ').filter((part) => part === site).length > 1) twice.push(`${path}: ${model.title}`);
      }
      expect(twice).toEqual([]);
    }, 60_000);
});

describe('the pages of a list', () => {
  it.each([
    ['cocoloan', '/city/h', '/city/h/2'],
    ['ipaydayloans', '/answers', '/answers/2'],
    ['weloans', '/blog', '/blog/2'],
  ])('%s %s and %s have titles of their own', async (id, first, second) => {
    const titleOf = async (path: string) => {
      const model = await buildPageModel(catalog, id, path, { source, now: SAMPLE_NOW });
      if (model === 'notFound') throw new Error(`${id}${path} is no page`);
      return model.title;
    };
    const [one, two] = [await titleOf(first), await titleOf(second)];
    expect(two).not.toBe(one);
    expect(two).toBe(one.replace(' | ', ', page 2 | '));
  });
});
