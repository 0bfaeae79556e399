/**
 * Server render of a sample path of every route of every brand (tests/support/pageSamples.ts):
 * no throw, status 200, exactly one <h1>, a title. And text equality: those pages read exactly
 * as recorded in tests/unit/blocks/page-text/<brand>.json — same URLs, same title and
 * description, same visible text. It guards refactors of brand files and layouts (folding
 * copies into shared layouts must not change a word). When a text change is deliberate,
 * record it again and review the diff:
 *
 *   UPDATE_PAGE_TEXT=1 npx vitest run tests/unit/blocks/render-pages.test.ts
 *
 * The header and footer text is stored once per distinct text (`chrome`), each page pointing
 * at its own by a short hash.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../../engine/site/catalog';
import { createEmbeddedSource, embeddedIndex } from '../../../engine/content/embedded';
import { renderPage, samplePaths } from '../../support/pageSamples';
import { BLOCK_SPECS } from '../../../blocks/generated/specs';

interface PageText {
  title: string;
  description: string;
  chrome: string;
  main: string;
}
interface BrandText {
  chrome: Record<string, string>;
  pages: Record<string, PageText>;
}

const DIR = join(process.cwd(), 'tests/unit/blocks/page-text');
const updating = process.env.UPDATE_PAGE_TEXT === '1';
const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
const source = createEmbeddedSource(embeddedIndex());
const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

async function currentText(brandId: string): Promise<BrandText> {
  const out: BrandText = { chrome: {}, pages: {} };
  for (const path of await samplePaths(catalog.brands.get(brandId)!, source)) {
    const page = await renderPage(catalog, brandId, path, source);
    if (page === 'notFound') throw new Error(`${brandId}${path}: a sample path is not a page`);
    // Server render: it did not throw; the page has its one <h1> and a title.
    expect([page.status, page.h1Count], `${brandId}${path}: status and number of <h1>`).toEqual([200, 1]);
    expect(page.title, `${brandId}${path}: title`).toMatch(/\S.* \| \S/);
    const chrome = shortHash(page.chrome);
    out.chrome[chrome] = page.chrome;
    out.pages[path] = { title: page.title, description: page.description, chrome, main: page.main };
  }
  return out;
}

describe('the visible text of every sample page', () => {
  it('is recorded for every brand, and only for brands that exist', () => {
    if (updating) return;
    const files = existsSync(DIR)
      ? readdirSync(DIR)
          .filter((f) => f.endsWith('.json'))
          .sort()
      : [];
    expect(files, 'one recorded file per brand (UPDATE_PAGE_TEXT=1 records them)').toEqual([...catalog.brands.keys()].map((id) => `${id}.json`).sort());
  });

  for (const brandId of [...catalog.brands.keys()].sort()) {
    it(`${brandId}: every sample page renders (one h1, a title) with the recorded URLs and text`, async () => {
      const now = await currentText(brandId);
      const file = join(DIR, `${brandId}.json`);
      if (updating) {
        mkdirSync(DIR, { recursive: true });
        writeFileSync(file, JSON.stringify(now, null, 1) + '\n');
        return;
      }
      const before = JSON.parse(readFileSync(file, 'utf8')) as BrandText;
      expect(Object.keys(now.pages), 'the sample URLs changed').toEqual(Object.keys(before.pages));
      for (const [path, page] of Object.entries(now.pages)) {
        const was = before.pages[path]!;
        expect({ title: page.title, description: page.description }, `${brandId}${path}: title or description`).toEqual({
          title: was.title,
          description: was.description,
        });
        expect(page.main, `${brandId}${path}: the main text`).toBe(was.main);
        expect(now.chrome[page.chrome], `${brandId}${path}: header or footer text`).toBe(before.chrome[was.chrome]);
      }
    }, 120_000);
  }
});
