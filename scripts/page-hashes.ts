/**
 * Hashes of the full server HTML (and of the page model: head, JSON-LD, status) of every
 * sample page of every brand (tests/support/pageSamples.ts), one "brand path html-sha model-sha"
 * line each, and of each brand's sitemap paths (in order) and robots.txt. Run before and after a refactor of brand files and compare the outputs: folding
 * layouts must leave every page byte-identical.
 *
 *   npx tsx scripts/page-hashes.ts > before.txt
 */
import { createHash } from 'node:crypto';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import BrandPage from '../pages/_brand/[brand]/[[...path]]';
import { preloadBlocks } from '../blocks/loading';
import { buildCatalog, readSources } from '../engine/site/catalog';
import { createEmbeddedSource, embeddedIndex } from '../engine/content/embedded';
import { buildPageModel } from '../engine/site/pageModel';
import { allPaths, robotsTxt } from '../engine/site/seo/sitemap';
import { SAMPLE_NOW, samplePaths } from '../tests/support/pageSamples';
import { BLOCK_SPECS } from '../blocks/generated/specs';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

async function main() {
  const sources = readSources();
  const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
  if (catalog.problems.length) throw new Error(catalog.problems.join('\n'));
  const source = createEmbeddedSource(embeddedIndex());
  const lines: string[] = [];
  for (const brandId of [...catalog.brands.keys()].sort()) {
    const loaded = catalog.brands.get(brandId)!;
    // the sitemap's paths in order, and robots.txt: route order shows there
    lines.push(`${brandId} #sitemap ${sha((await allPaths(loaded, source)).join('\n'))} ${sha(robotsTxt(loaded))}`);
    for (const path of await samplePaths(catalog.brands.get(brandId)!, source)) {
      const model = await buildPageModel(catalog, brandId, path, { source, now: SAMPLE_NOW });
      if (model === 'notFound') throw new Error(`${brandId}${path}: not a page`);
      await preloadBlocks(model.blocks.map((b) => b.type));
      const html = renderToString(createElement(BrandPage, { model }));
      lines.push(`${brandId} ${path} ${sha(html)} ${sha(JSON.stringify(model))}`);
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
