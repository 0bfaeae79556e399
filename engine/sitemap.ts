/**
 * Every page of a brand, enumerated from its routes and the data behind their parameters
 * (all states, all cities for every scheme, letter pages, letter groups, amounts, store
 * brands), deduplicated and checked to resolve; split into sitemaps of at most 50,000 URLs
 * under a sitemap index.
 */
import { allCitiesByName, citiesOf, cityStateSlug, distinctCitySlugs } from './cities';
import type { LoadedBrand } from './catalog';
import { STORE_BRANDS } from './data/stores';
import { cityPageCount, citiesStartingWith, LETTER_GROUPS } from './directory';
import { matchPath } from './resolve';
import { BORROW_AMOUNTS, type CompiledRoute, type ParamKind } from './routes';
import { canonicalUrl } from './seo';
import { STATES, type State } from './states';

export const SITEMAP_MAX_URLS = 50_000;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');

type Assignment = Partial<Record<ParamKind, string>>;

function* expand(route: CompiledRoute, loaded: LoadedBrand): Generator<Assignment> {
  const kinds = route.params.filter((k) => k !== 'page');
  if (kinds.includes('list')) return; // list values come from the content store (blog lists)
  function* step(i: number, acc: Assignment, state?: State): Generator<Assignment> {
    if (i === kinds.length) {
      yield acc;
      if (route.params.includes('page') && acc.letter) {
        for (let p = 2; p <= cityPageCount(acc.letter); p++) yield { ...acc, page: String(p) };
      }
      return;
    }
    const kind = kinds[i]!;
    const next = (value: string, s = state) => step(i + 1, { ...acc, [kind]: value }, s);
    switch (kind) {
      case 'state':
        for (const s of STATES) yield* next(s.slug, s);
        break;
      case 'stateCode':
        for (const s of STATES) yield* next(s.code, s);
        break;
      case 'city':
        for (const slug of state ? citiesOf(state.code).map((c) => c.slug) : distinctCitySlugs()) yield* next(slug);
        break;
      case 'cityState':
        for (const c of allCitiesByName()) yield* next(cityStateSlug(c));
        break;
      case 'letter':
        for (const l of LETTERS) if (citiesStartingWith(l).length) yield* next(l);
        break;
      case 'loanType':
        for (const t of loaded.brand.loanTypes) yield* next(t);
        break;
      case 'letterGroup':
        for (const g of LETTER_GROUPS) yield* next(g);
        break;
      case 'amount':
        for (const a of BORROW_AMOUNTS) yield* next(String(a));
        break;
      case 'store':
        for (const s of STORE_BRANDS) yield* next(s.slug);
        break;
      default:
        break;
    }
  }
  yield* step(0, {});
}

const fillPath = (pattern: string, values: Assignment): string =>
  pattern.replace(/\/\{page\?\}$/, values.page ? `/${values.page}` : '').replace(/\{(\w+)\}/g, (_, k: ParamKind) => values[k] ?? '');

/** Every path of the brand that resolves, in route order, each once. */
export function brandPaths(loaded: LoadedBrand): string[] {
  const seen = new Set<string>();
  for (const route of loaded.routes) {
    for (const values of expand(route, loaded)) {
      const path = fillPath(route.path, values);
      if (seen.has(path)) continue;
      const match = matchPath(loaded, path);
      // A city slug that is also a state slug resolves to the state page: keep it once, under its own route.
      if (match) seen.add(path);
    }
  }
  return [...seen];
}

const cache = new WeakMap<LoadedBrand, string[]>();
const pathsOf = (loaded: LoadedBrand) => {
  let paths = cache.get(loaded);
  if (!paths) cache.set(loaded, (paths = brandPaths(loaded)));
  return paths;
};

const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

export const sitemapCount = (loaded: LoadedBrand): number => Math.max(1, Math.ceil(pathsOf(loaded).length / SITEMAP_MAX_URLS));

export function sitemapIndexXml(loaded: LoadedBrand): string {
  const base = canonicalUrl(loaded.brand, '/').replace(/\/$/, '');
  const items = Array.from({ length: sitemapCount(loaded) }, (_, i) => `<sitemap><loc>${xmlEscape(`${base}/sitemaps/${i}.xml`)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${items.join('')}</sitemapindex>\n`;
}

/** Child sitemap n (0-based), or undefined past the last one. */
export function sitemapXml(loaded: LoadedBrand, n: number): string | undefined {
  const paths = pathsOf(loaded);
  if (!Number.isInteger(n) || n < 0 || n >= sitemapCount(loaded)) return undefined;
  const slice = paths.slice(n * SITEMAP_MAX_URLS, (n + 1) * SITEMAP_MAX_URLS);
  const urls = slice.map((p) => `<url><loc>${xmlEscape(canonicalUrl(loaded.brand, p))}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('\n')}</urlset>\n`;
}

export function robotsTxt(loaded: LoadedBrand): string {
  const base = canonicalUrl(loaded.brand, '/').replace(/\/$/, '');
  const apply = loaded.brand.apply.path;
  return `User-agent: *\nAllow: /\nDisallow: ${apply}\nDisallow: /api/\n\nSitemap: ${base}/sitemap.xml\n`;
}
