/**
 * Links the application form shows only in the browser (the state gate and the thank-you step
 * are rendered after the visitor acts, so no crawl of the server's HTML ever sees them): every
 * brand's form, each such step rendered as the browser renders it, and every link resolved
 * against the brand's pages — its routes with their data, and the content store's pages, as the
 * sitemap lists them (engine/site/seo/sitemap.ts allPaths).
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { StateGate, ThankYou } from '../../../blocks/applyForm/LaterSteps';
import { buildCatalog, readSources } from '../../../engine/site/catalog';
import { createEmbeddedSource, embeddedIndex } from '../../../engine/content/embedded';
import type { ResolvedBlockOf } from '../../../engine/site/model';
import { resolvePage } from '../../../engine/site/resolve';
import { allPaths } from '../../../engine/site/seo/sitemap';
import { SAMPLE_NOW } from '../../support/pageSamples';
import { BLOCK_SPECS } from '../../../blocks/generated/specs';

const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
const content = createEmbeddedSource(embeddedIndex());

const hrefsOf = (html: string) => [...html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

describe('links inside the application form', () => {
  for (const [id, loaded] of catalog.brands) {
    // Every page of the brand with a form: the routes without parameters whose layout has one.
    const formPaths = loaded.routes
      .filter((r) => r.params.length === 0 && loaded.layout(r.layout)?.blocks.some((b) => b.type === 'applyForm'))
      .map((r) => r.path);

    if (formPaths.length === 0) continue; // its form is a partner's script, or it has none
    it(`${id}: every link of the state gate and the thank-you step is a page of the brand`, async () => {
      const pages = new Set(await allPaths(loaded, content));
      const broken: string[] = [];
      for (const path of formPaths) {
        const model = resolvePage(catalog, id, path, SAMPLE_NOW)!;
        for (const block of model.blocks.filter((b): b is ResolvedBlockOf<'applyForm'> => b.type === 'applyForm')) {
          const steps = {
            'state gate': createElement(StateGate, { reason: 'Not in your state', homeHref: model.brand.homeHref, codeWord: 'ZIP code' }),
            'thank-you': createElement(ThankYou, { receiptId: 'r-1', homeHref: model.brand.homeHref, guide: block.data.guide, regionWord: 'state' }),
          };
          for (const [step, element] of Object.entries(steps))
            for (const href of hrefsOf(renderToStaticMarkup(element))) {
              const own = href.startsWith('/') && !href.startsWith('//');
              if (own && !pages.has(href.replace(/[?#].*$/, ''))) broken.push(`${path} (${step}): ${href}`);
            }
        }
      }
      expect(broken).toEqual([]);
    }, 60_000);
  }
});
