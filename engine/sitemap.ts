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
import type { Collection, ContentSource, Entry, ListFilters, Market } from './content/types';
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

/** Route pages only (no content service): counts and XML. */
export const sitemapCount = (loaded: LoadedBrand): number => sitemapCountOf(pathsOf(loaded));
export const sitemapIndexXml = (loaded: LoadedBrand): string => sitemapIndexXmlOf(loaded, pathsOf(loaded));
/** Child sitemap n (0-based), or undefined past the last one. */
export const sitemapXml = (loaded: LoadedBrand, n: number): string | undefined => sitemapXmlOf(loaded, pathsOf(loaded), n);

export function robotsTxt(loaded: LoadedBrand): string {
  const base = canonicalUrl(loaded.brand, '/').replace(/\/$/, '');
  const apply = loaded.brand.apply.path;
  return `User-agent: *\nAllow: /\nDisallow: ${apply}\nDisallow: /api/\n\nSitemap: ${base}/sitemap.xml\n`;
}

/**
 * Pages whose existence the content service decides: list pages (every category with articles
 * for the brand, and page 2… of paginated lists) and items (articles, answers, hub entries,
 * tags, authors). Each path is checked against the brand's routes.
 */
export async function contentPaths(loaded: LoadedBrand, source: ContentSource): Promise<string[]> {
  const brand = { id: loaded.brand.id, market: loaded.brand.country.toLowerCase() as Market };
  const all = async (collection: Collection, filters: ListFilters = {}) => {
    const out: Entry[] = [];
    for (let page = 1; ; page++) {
      const r = await source.list(collection, { filters, pagination: { page, pageSize: 100 }, publicationState: 'LIVE' });
      out.push(...r.data);
      if (page >= r.meta.pagination.pageCount) return out;
    }
  };
  const articles = await all('article', { brand });
  const countBy = (key: (e: Entry) => string[]) => {
    const m = new Map<string, number>();
    for (const e of articles) for (const k of key(e)) m.set(k, (m.get(k) ?? 0) + 1);
    return m;
  };
  const perCategory = countBy((e) => (e.attributes.category ? [e.attributes.category] : []));
  const perTag = countBy((e) => e.attributes.extras?.tags ?? []);
  const items: Record<string, Entry[]> = {
    article: articles,
    answer: await all('answer', { brand }),
    hub: await all('hub', { brand }),
    author: await all('author', { brand }),
    tag: (await all('tag')).filter((t) => perTag.has(t.attributes.slug)),
    category: (await all('category')).filter((c) => perCategory.has(c.attributes.slug)),
  };
  const out: string[] = [];
  const pagesOf = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));
  for (const route of loaded.routes) {
    const layout = loaded.layout(route.layout);
    const list = layout?.blocks.find((b) => b.type === 'contentList' && b.paginate);
    const pageSize = list?.type === 'contentList' ? (list.pageSize ?? 5) : 5;
    const base = (values: Record<string, string>) => route.path.replace(/\/\{page\?\}$/, '').replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? `{${k}}`);
    const withPages = (path: string, total: number) => {
      out.push(path);
      if (route.params.includes('page') && list) for (let p = 2; p <= pagesOf(total, pageSize); p++) out.push(`${path}/${p}`);
    };
    if (route.params.includes('slug') && route.content) {
      for (const e of items[route.content] ?? []) out.push(base({ slug: e.attributes.slug, ...(route.params.includes('list') ? { list: e.attributes.category ?? '' } : {}) }));
    } else if (route.params.includes('list')) {
      for (const [category, n] of perCategory) withPages(base({ list: category }), n);
    } else if (route.params.includes('page') && list?.type === 'contentList' && route.params.length === 1) {
      withPages(base({}), list.collection === 'article' ? articles.length : (items[list.collection]?.length ?? 0));
    }
  }
  return [...new Set(out)].filter((p) => !p.includes('{') && matchPath(loaded, p));
}

const full = new Map<string, { paths: string[]; expires: number }>();
/** Route pages plus content pages, cached 10 minutes per brand (content changes; routes do not). */
export async function allPaths(loaded: LoadedBrand, source: ContentSource): Promise<string[]> {
  const hit = full.get(loaded.brand.id);
  if (hit && hit.expires > Date.now()) return hit.paths;
  const paths = [...new Set([...pathsOf(loaded), ...(await contentPaths(loaded, source))])];
  full.set(loaded.brand.id, { paths, expires: Date.now() + 600_000 });
  return paths;
}

export const sitemapCountOf = (paths: readonly string[]): number => Math.max(1, Math.ceil(paths.length / SITEMAP_MAX_URLS));

export function sitemapIndexXmlOf(loaded: LoadedBrand, paths: readonly string[]): string {
  const base = canonicalUrl(loaded.brand, '/').replace(/\/$/, '');
  const items = Array.from({ length: sitemapCountOf(paths) }, (_, i) => `<sitemap><loc>${xmlEscape(`${base}/sitemaps/${i}.xml`)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${items.join('')}</sitemapindex>\n`;
}

export function sitemapXmlOf(loaded: LoadedBrand, paths: readonly string[], n: number): string | undefined {
  if (!Number.isInteger(n) || n < 0 || n >= sitemapCountOf(paths)) return undefined;
  const urls = paths.slice(n * SITEMAP_MAX_URLS, (n + 1) * SITEMAP_MAX_URLS).map((p) => `<url><loc>${xmlEscape(canonicalUrl(loaded.brand, p))}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('\n')}</urlset>\n`;
}
