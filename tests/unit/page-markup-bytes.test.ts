/**
 * The markup a brand page repeats is written once: the chrome's and the list blocks' styles are
 * classes in styles/globals.css rather than runs of utilities, adjacent texts are one text node
 * (React writes <!-- --> between two), and Next's stylesheet is named by one link. Every byte is in
 * every page's HTML, whose budget (30 KB for the payday home and /payday-loans:
 * scripts/bench/htmlSize.ts) has no room for them.
 */
import { createElement } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import BrandPage from '../../pages/_brand/[brand]/[[...path]]';
import { preloadBlocks } from '../../blocks/loading';
import { stylesheetLinks } from '../../blocks/chrome/stylesheetLinks';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { buildPageModel } from '../../engine/site/pageModel';
import { createEmbeddedSource, embeddedIndex } from '../../engine/content/embedded';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { SAMPLE_NOW } from '../support/pageSamples';

const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
const source = createEmbeddedSource(embeddedIndex());

async function pageMarkup(brandId: string, path: string): Promise<string> {
  const model = await buildPageModel(catalog, brandId, path, { source, now: SAMPLE_NOW });
  if (model === 'notFound') throw new Error(`${brandId}${path}: not a page`);
  await preloadBlocks(model.blocks.map((b) => b.type));
  return renderToString(createElement(BrandPage, { model }));
}

describe("a brand page's repeated markup", () => {
  it('styles the header logo, the footer, the FAQ and the link and state grids by their classes', async () => {
    const html = await pageMarkup('ipaydayloans', '/');
    expect(html).toContain(
      '<a href="/" class="hdr-logo" aria-label="iPaydayLoans home"><img src="/logos/ipaydayloans.svg" alt="iPaydayLoans" width="180" height="40"/></a>',
    );
    expect(html).toMatch(/<div class="foot-grid"><div><p /);
    expect(html).toMatch(/<p class="foot-legal"><a href="[^"]+">[^<]+<\/a><a href="[^"]+">[^<]+<\/a><\/p>/);
    expect(html).toContain('<div class="faq-list"><details>');
    expect(html).toContain('<ul class="link-tiles"><li>');
    expect(html).toContain('<ul class="state-tiles"><li>');
  });

  it('writes the cost note and the slider label without text boundaries', async () => {
    const home = await pageMarkup('ipaydayloans', '/');
    expect(home).toMatch(/<p class="mt-1">Questions\? <a href="tel:\+\d+" class="tel-link">[^<]+<\/a> · [^<]+<\/p>/);
    expect(home).toContain('<div data-cost-note="" class="text-sm leading-relaxed text-slate-700">');
    const paydayLoans = await pageMarkup('ipaydayloans', '/payday-loans');
    expect(paydayLoans).toMatch(/Or type an amount \(\$100 to \$5,000\)<\/label>/);
    for (const html of [home, paydayLoans]) expect(html).not.toContain('<!-- -->');
  });

  it("names Next's stylesheet by its stylesheet link alone, without the preload and the unread data-n-g", () => {
    const links = [
      createElement('link', { key: 'p', rel: 'preload', href: '/_next/static/chunks/site.css', as: 'style' }),
      createElement('link', { key: 's', rel: 'stylesheet', href: '/_next/static/chunks/site.css', 'data-n-g': '' }),
      createElement('link', { key: 'page', rel: 'stylesheet', href: '/_next/static/chunks/page.css', 'data-n-p': '' }),
    ];
    expect(renderToStaticMarkup(createElement('head', null, ...(stylesheetLinks(links) ?? [])))).toBe(
      '<head><link rel="stylesheet" href="/_next/static/chunks/site.css"/><link rel="stylesheet" href="/_next/static/chunks/page.css" data-n-p=""/></head>',
    );
    expect(stylesheetLinks(null)).toBeNull();
  });
});
