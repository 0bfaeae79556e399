/**
 * Server render of every block with its schema's examples: each example takes the place of a
 * block of the same kind in a real page (so it gets the route data it needs), the brand is
 * checked by the same validator as `npm run validate`, and the page is rendered with
 * renderToString — no throw, one <h1>, a title, the example's heading on the page. Also every
 * brand's own 404 page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BLOCK_TYPES, type Block, type Brand, type Layout } from '../../../schemas/brand.types';
import { buildCatalog, readSources, type Source } from '../../../engine/site/catalog';
import { createEmbeddedSource, embeddedIndex } from '../../../engine/content/embedded';
import { matchPath, NOT_FOUND_PATH } from '../../../engine/site/pageMatch';
import { layoutParamNames } from '../../../engine/site/layoutParams';
import { fill } from '../../../engine/site/templates';
import { capitalizeFirst } from '../../../engine/geo/names';
import { renderPage, samplePaths } from '../../support/pageSamples';
import { BLOCK_SPECS } from '../../../blocks/generated/specs';

const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
const content = createEmbeddedSource(embeddedIndex());
const examplesOf = (type: string): Block[] =>
  (JSON.parse(readFileSync(join(process.cwd(), `blocks/${type}/schema.json`), 'utf8')) as { examples?: Block[] }).examples ?? [];

/** What makes two blocks of one type need the same page: the same scope, filter, collection, form kind. */
const kindOf = (b: Block) =>
  JSON.stringify([
    b.type,
    'scope' in b ? b.scope : '',
    'filterBy' in b ? b.filterBy : '',
    'collection' in b ? b.collection : '',
    'loanKind' in b ? b.loanKind : '',
  ]);

interface Host {
  brand: Brand;
  source: Source;
  layoutName: string;
  index: number;
  path: string;
}
const hosts: Host[] = [];

beforeAll(async () => {
  for (const [id, loaded] of catalog.brands) {
    const source = sources.brands.find((s) => s.file === loaded.file)!;
    const seen = new Set<string>();
    for (const path of await samplePaths(loaded, content)) {
      const name = matchPath(loaded, path)!.route.layout;
      if (seen.has(name)) continue;
      seen.add(name);
      loaded.layout(name)!.blocks.forEach((_, index) => hosts.push({ brand: catalog.brands.get(id)!.brand, source, layoutName: name, index, path }));
    }
  }
}, 120_000);

/** The sources with one block of one layout replaced by the example. */
function withExample(host: Host, example: Block): { brands: Source[]; layouts: Source[] } {
  const own = host.brand.layouts?.[host.layoutName];
  const replace = (layout: Layout): Layout => ({ ...layout, blocks: layout.blocks.map((b, i) => (i === host.index ? example : b)) as Layout['blocks'] });
  // the example takes the place of a block that may have written a layout parameter: the routes keep only those still written
  const routesFor = (layout: Layout) => {
    const names = layoutParamNames(layout);
    return host.brand.routes.map((r) =>
      r.layout === host.layoutName && r.layoutParams
        ? { ...r, layoutParams: Object.fromEntries(Object.entries(r.layoutParams).filter(([k]) => names.includes(k))) }
        : r,
    );
  };
  if (own) {
    const layout = replace(own);
    const brand = { ...host.brand, routes: routesFor(layout), layouts: { ...host.brand.layouts, [host.layoutName]: layout } };
    return { brands: [{ file: host.source.file, text: JSON.stringify(brand, null, 2) }], layouts: sources.layouts };
  }
  const file = `brands/layouts/${host.layoutName}.json`;
  const shared = sources.layouts.find((s) => s.file === file)!;
  const layout = replace(JSON.parse(shared.text) as Layout);
  const layouts = sources.layouts.map((s) => (s === shared ? { file, text: JSON.stringify(layout, null, 2) } : s));
  return { brands: [{ file: host.source.file, text: JSON.stringify({ ...host.brand, routes: routesFor(layout) }, null, 2) }], layouts };
}

describe('every block renders on the server with its schema examples', () => {
  for (const type of BLOCK_TYPES) {
    it(`${type}: has examples, each renders in a real page`, async () => {
      const examples = examplesOf(type);
      expect(examples.length, `blocks/${type}/schema.json needs "examples"`).toBeGreaterThan(0);
      for (const example of examples) {
        const candidates = hosts.filter((h) => {
          const block = h.brand.layouts?.[h.layoutName]?.blocks[h.index] ?? catalog.brands.get(h.brand.id)!.layout(h.layoutName)!.blocks[h.index]!;
          return kindOf(block) === kindOf(example);
        });
        expect(candidates.length, `no page has a ${kindOf(example)} block to stand in for`).toBeGreaterThan(0);
        let lastProblems: string[] = [];
        const host = candidates.find((h) => {
          const { brands, layouts } = withExample(h, example);
          lastProblems = buildCatalog(brands, layouts, BLOCK_SPECS).problems;
          return lastProblems.length === 0;
        });
        expect(host, `the example is valid on no page that has such a block; last problems: ${lastProblems.join('\n')}`).toBeDefined();
        const { brands, layouts } = withExample(host!, example);
        const page = await renderPage(buildCatalog(brands, layouts, BLOCK_SPECS), host!.brand.id, host!.path, content);
        if (page === 'notFound') throw new Error(`${host!.brand.id}${host!.path} is not a page`);
        expect(page.h1Count, `${host!.brand.id}${host!.path}`).toBe(1);
        expect(page.title.length).toBeGreaterThan(3);
        const heading = 'heading' in example && example.heading;
        if (heading && !heading.includes('{')) expect(page.main).toContain(capitalizeFirst(fill(heading, {})));
      }
    }, 60_000);
  }
});

describe("every brand's 404 page", () => {
  for (const id of catalog.brands.keys()) {
    it(`${id}: renders with one h1 and a title`, async () => {
      const page = await renderPage(catalog, id, NOT_FOUND_PATH, content);
      if (page === 'notFound') throw new Error('no 404 page');
      expect(page.status).toBe(404);
      expect(page.h1Count).toBe(1);
      expect(page.title).toMatch(/^Page not found \| /);
    });
  }
});
