/**
 * A sample path of every route of every brand, and what a visitor reads there: the page
 * rendered on the server (the same components the brand catch-all renders) reduced to its
 * visible text. Used by the server-render tests and by the text-equality snapshot that
 * guards refactors of the brand files (tests/unit/blocks/render-pages.test.ts).
 */
import { renderToString } from 'react-dom/server';
import { createElement } from 'react';
import BrandPage from '../../pages/_brand/[brand]/[[...path]]';
import { preloadBlocks } from '../../blocks/registry';
import type { Catalog, LoadedBrand } from '../../engine/site/catalog';
import { contentPaths } from '../../engine/site/seo/sitemap';
import { buildPageModel } from '../../engine/site/pageModel';
import { matchPath } from '../../engine/site/pageMatch';
import type { ContentSource } from '../../engine/content/types';

/** Fixed so the copyright year never changes the text. */
export const SAMPLE_NOW = new Date('2026-06-15T12:00:00Z');

/**
 * Values tried for each parameter: a served state, a no-service state and a state title
 * lenders skip, so availability paragraphs of every kind are covered.
 */
const SAMPLES: Record<string, readonly string[]> = {
  state: ['texas', 'new-york', 'alaska'],
  stateCode: ['tx', 'ny', 'ak'],
  city: ['houston', 'buffalo', 'anchorage'],
  cityState: ['houston-tx', 'buffalo-ny'],
  letter: ['b'],
  page: ['', '2'],
  letterGroup: ['ijk'],
  amount: ['500'],
  store: ['advance-america'],
};

function* assignments(names: readonly string[], loaded: LoadedBrand, i = 0, acc: Record<string, string> = {}): Generator<Record<string, string>> {
  if (i === names.length) return yield acc;
  const name = names[i]!;
  const values = name === 'loanType' ? loaded.brand.loanTypes : (SAMPLES[name] ?? []);
  for (const v of values) yield* assignments(names, loaded, i + 1, { ...acc, [name]: v });
}

const fillPattern = (pattern: string, values: Record<string, string>) =>
  pattern.replace(/\/\{page\?\}$/, values.page ? `/${values.page}` : '').replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? `{${k}}`);

/**
 * Sample paths of a brand, sorted: for each route every combination of the sample values
 * (every loan type the brand offers) that this very route answers, plus the first content
 * page each content route answers. A route whose samples all fail gives no path.
 */
export async function samplePaths(loaded: LoadedBrand, source: ContentSource): Promise<string[]> {
  const out = new Set<string>();
  const content = await contentPaths(loaded, source);
  for (const route of loaded.routes) {
    const names = [...new Set(route.params)];
    if (names.includes('slug') || names.includes('list')) {
      const first = content.find((p) => matchPath(loaded, p)?.route.index === route.index);
      if (first) out.add(first);
      continue;
    }
    for (const values of assignments(names, loaded)) {
      const path = fillPattern(route.path, values);
      if (matchPath(loaded, path)?.route.index === route.index) out.add(path);
    }
  }
  return [...out].sort();
}

export interface RenderedPage {
  status: number;
  title: string;
  description: string;
  h1Count: number;
  /** the visible text of the page's <main>, whitespace collapsed */
  main: string;
  /** the visible text around it: header, navigation, footer */
  chrome: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };

/** The text a visitor sees: scripts, styles and hidden-by-markup parts dropped, tags removed. */
export function visibleText(html: string): string {
  return html
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(#?[a-z0-9]+);/gi, (whole, name: string) => ENTITIES[name.toLowerCase()] ?? whole)
    .replace(/\s+/g, ' ')
    .trim();
}

/** The page as getStaticProps and the brand catch-all would render it (head tags aside). */
export async function renderPage(catalog: Catalog, brandId: string, path: string, source: ContentSource): Promise<RenderedPage | 'notFound'> {
  const model = await buildPageModel(catalog, brandId, path, { source, now: SAMPLE_NOW });
  if (model === 'notFound') return 'notFound';
  await preloadBlocks(model.blocks.map((b) => b.type));
  const html = renderToString(createElement(BrandPage, { model }));
  const open = html.indexOf('<main');
  const close = html.lastIndexOf('</main>');
  if (open < 0 || close < 0) throw new Error(`${brandId}${path}: the page has no <main>`);
  return {
    status: model.status,
    title: model.title,
    description: model.description,
    h1Count: (html.match(/<h1[\s>]/g) ?? []).length,
    main: visibleText(html.slice(open, close)),
    chrome: visibleText(`${html.slice(0, open)} ${html.slice(close)}`),
  };
}
