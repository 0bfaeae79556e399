/**
 * Every page of a brand, enumerated from its routes and the data behind their parameters
 * (all states, all cities for every scheme, letter pages, letter groups, amounts, store
 * brands), deduplicated and checked to resolve; split into sitemaps of at most 50,000 URLs
 * under a sitemap index.
 */
import type { LoadedBrand } from '../catalog';
import { canonicalPath, matchPath } from '../pageMatch';
import type { CompiledRoute, RouteMatch } from '../routes';
import { OPTIONAL_PARAM, ROUTE_PARAMS, type ParamKind, type RouteParamKind } from '../routeParams';
import { canonicalUrl } from './seo';
import { specOf } from '../blockSpec';
import type { Collection, ContentSource, Entry, ListFilters, Market } from '../../content/types';
import { allEntries, shownEntries, type ShownChecks } from '../contentLists';
import type { State } from '../../geo/states';

export const SITEMAP_MAX_URLS = 50_000;

type Assignment = Partial<Record<ParamKind, string>>;

/** Every assignment of a route's parameters the table can enumerate (none for content-decided ones). */
function* expand(route: CompiledRoute, loaded: LoadedBrand): Generator<Assignment> {
  const kinds = route.params.filter((k) => k !== OPTIONAL_PARAM);
  const enumerators = kinds.map((k) => ROUTE_PARAMS[k] as RouteParamKind);
  if (enumerators.some((def) => def.sitemap === 'content')) return; // the content store decides (contentPaths)
  const optional = route.params.includes(OPTIONAL_PARAM) ? (ROUTE_PARAMS[OPTIONAL_PARAM] as RouteParamKind) : undefined;
  const brand = loaded.brand;
  function* step(i: number, acc: Assignment, state?: State): Generator<Assignment> {
    if (i === kinds.length) {
      yield acc;
      if (optional && optional.sitemap !== 'content')
        for (const v of optional.sitemap({ brand, assigned: acc, ...(state ? { state } : {}) })) yield { ...acc, [OPTIONAL_PARAM]: v.value };
      return;
    }
    const values = enumerators[i]!.sitemap;
    if (values === 'content') return;
    for (const v of values({ brand, assigned: acc, ...(state ? { state } : {}) })) yield* step(i + 1, { ...acc, [kinds[i]!]: v.value }, v.state ?? state);
  }
  yield* step(0, {});
}

const fillPath = (pattern: string, values: Assignment): string =>
  pattern.replace(/\/\{page\?\}$/, values.page ? `/${values.page}` : '').replace(/\{(\w+)\}/g, (_, k: ParamKind) => values[k] ?? '');

/** The paths of one route of the brand that resolve, with what they match, one at a time (a route's cities are many). */
function* routeMatches(loaded: LoadedBrand, route: CompiledRoute, skip: (path: string) => boolean): Generator<[string, RouteMatch]> {
  for (const values of expand(route, loaded)) {
    const path = fillPath(route.path, values);
    const match = skip(path) ? undefined : matchPath(loaded, path);
    if (match) yield [path, match];
  }
}

/** The paths of one route of the brand that resolve, one at a time. */
export function* routePaths(loaded: LoadedBrand, route: CompiledRoute, skip: (path: string) => boolean = () => false): Generator<string> {
  for (const [path] of routeMatches(loaded, route, skip)) yield path;
}

/** Every path of the brand that resolves, in route order, each once, each page at its canonical path only. */
export function brandPaths(loaded: LoadedBrand): string[] {
  const seen = new Set<string>();
  // A city slug that is also a state slug resolves to the state page: keep it once, under its own route.
  for (const route of loaded.routes)
    for (const [path, match] of routeMatches(loaded, route, (p) => seen.has(p))) if (canonicalPath(loaded, path, match) === path) seen.add(path);
  return [...seen];
}

const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** What robots.txt keeps crawlers off, as its Disallow rules: the application form and the API. */
export const robotsDisallowed = (loaded: LoadedBrand): string[] => [loaded.brand.apply.path, '/api/'];

/**
 * What robots.txt lets crawlers fetch inside what it disallows, as its Allow rules: a logo
 * uploaded in the studio is served under /api/ (engine/console/logoUpload.ts LOGO_PATH), and the
 * header shows it and the Organization and Article structured data name it.
 */
export const ROBOTS_ALLOWED = ['/api/brand-logo/'];

/**
 * Whether robots.txt keeps crawlers off `path`, as crawlers read its rules (RFC 9309): the
 * longest rule that is a prefix of the path decides, an Allow winning a tie.
 */
export function robotsDisallows(loaded: LoadedBrand, path: string): boolean {
  const longest = (rules: readonly string[]) => Math.max(-1, ...rules.filter((rule) => path.startsWith(rule)).map((rule) => rule.length));
  return longest(robotsDisallowed(loaded)) > longest(ROBOTS_ALLOWED);
}

export function robotsTxt(loaded: LoadedBrand): string {
  const base = canonicalUrl(loaded.brand, '/').replace(/\/$/, '');
  const rules = [...ROBOTS_ALLOWED.map((rule) => `Allow: ${rule}\n`), ...robotsDisallowed(loaded).map((rule) => `Disallow: ${rule}\n`)];
  return `User-agent: *\nAllow: /\n${rules.join('')}\nSitemap: ${base}/sitemap.xml\n`;
}

/** The page's own content list on a route (ContentNeeds.ownList): what decides whether the sitemap lists the page. */
const ownListOf = (loaded: LoadedBrand, route: CompiledRoute) =>
  loaded
    .layout(route.layout, route.layoutParams)
    ?.blocks.map((b) => specOf(loaded.specs, b.type).content?.ownList?.(b, route))
    .find((l) => l !== undefined);

/**
 * The route pages a list of content is for (/blog, /answers, /hub, /tag, /author): whether one is
 * in the sitemap is the content's to say (contentPaths lists it while its list shows something).
 */
const listPagesOf = (loaded: LoadedBrand): Set<string> =>
  new Set(loaded.routes.filter((r) => r.params.every((k) => k === OPTIONAL_PARAM) && ownListOf(loaded, r)).map((r) => fillPath(r.path, {})));

/**
 * Pages whose existence the content service decides: list pages (every category with articles
 * for the brand, a list page while its list shows something, and page 2… of paginated lists) and
 * items (articles, answers, hub entries, tags, authors). Each path is checked against the brand's
 * routes and listed at its canonical path only. What a list shows is counted as its page counts it (engine/site/contentLists.ts).
 */
export async function contentPaths(loaded: LoadedBrand, source: ContentSource): Promise<string[]> {
  const brand = { id: loaded.brand.id, market: loaded.brand.country.toLowerCase() as Market };
  const all = (collection: Collection, filters: ListFilters = {}) => allEntries(source, collection, { filters, publicationState: 'LIVE' });
  const articles = await all('article', { brand });
  const categories = await all('category');
  const known = new Set(categories.map((c) => c.attributes.slug));
  // a category or tag has a page once an article with a page is shown under it, as its page asks (loadPageContent)
  const perCategory = new Map<string, number>();
  const tagged = new Set<string>();
  const checks: ShownChecks = {
    isCategory: (slug) => known.has(slug),
    hasArticles: (topic, slug) => (topic === 'category' ? perCategory.has(slug) : tagged.has(slug)),
    isPage: (path) => matchPath(loaded, path) !== undefined,
  };
  const shown = await shownEntries('article', articles, checks);
  for (const e of shown) {
    perCategory.set(e.attributes.category!, (perCategory.get(e.attributes.category!) ?? 0) + 1);
    for (const tag of e.attributes.extras?.tags ?? []) tagged.add(tag);
  }
  const items: Record<Collection, Entry[]> = {
    article: shown,
    answer: await shownEntries('answer', await all('answer', { brand }), checks),
    hub: await shownEntries('hub', await all('hub', { brand }), checks),
    author: await shownEntries('author', await all('author', { brand }), checks),
    tag: await shownEntries('tag', await all('tag'), checks),
    category: await shownEntries('category', categories, checks),
  };
  const out: string[] = [];
  for (const route of loaded.routes) {
    const list = ownListOf(loaded, route);
    const base = (values: Record<string, string>) => route.path.replace(/\/\{page\?\}$/, '').replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? `{${k}}`);
    const withPages = (path: string, total: number) => {
      // a list that shows nothing yet says so and is noindex (engine/site/contentLoad.ts): not a page to offer a search engine
      if (total === 0) return;
      out.push(path);
      if (route.params.includes('page') && list?.paginated) for (let p = 2; p <= Math.ceil(total / list.pageSize); p++) out.push(`${path}/${p}`);
    };
    if (route.params.includes('slug') && route.content) {
      for (const e of items[route.content])
        out.push(base({ slug: e.attributes.slug, ...(route.params.includes('list') ? { list: e.attributes.category ?? '' } : {}) }));
    } else if (route.params.includes('list')) {
      for (const [category, n] of perCategory) withPages(base({ list: category }), n);
    } else if (list && route.params.every((k) => k === OPTIONAL_PARAM)) {
      withPages(base({}), items[list.collection].length);
    }
  }
  // each page at its canonical path only, as brandPaths lists route pages: an older address of a list page is not its own page
  return [...new Set(out)].filter((p) => {
    const match = !p.includes('{') && matchPath(loaded, p);
    return !!match && canonicalPath(loaded, p, match) === p;
  });
}

/**
 * Route pages then content pages, each once, in that order. A list page is a route page only
 * while its list shows something (contentPaths then lists it).
 */
export function combinedPaths(loaded: LoadedBrand, routePaths: readonly string[], content: readonly string[]): string[] {
  const listPages = listPagesOf(loaded);
  const listed = new Set(content);
  return [...new Set([...routePaths.filter((p) => !listPages.has(p) || listed.has(p)), ...content])];
}

/**
 * What the sitemaps list: the brand's pages less those robots.txt keeps crawlers off (the
 * application form). A sitemap URL that robots.txt blocks is an error to a search engine
 * ("Submitted URL blocked by robots.txt"), so the two files say the same thing.
 */
export const sitemapPaths = (loaded: LoadedBrand, routePaths: readonly string[], content: readonly string[]): string[] =>
  combinedPaths(loaded, routePaths, content).filter((path) => !robotsDisallows(loaded, path));

/** Route pages plus content pages, listed afresh (engine/site/seo/seoFiles.ts keeps what it builds from them, not the list). */
export async function allPaths(loaded: LoadedBrand, source: ContentSource): Promise<string[]> {
  return combinedPaths(loaded, brandPaths(loaded), await contentPaths(loaded, source));
}

export const sitemapCountOf = (paths: readonly string[]): number => Math.max(1, Math.ceil(paths.length / SITEMAP_MAX_URLS));

export function sitemapIndexXmlOf(loaded: LoadedBrand, paths: readonly string[]): string {
  const base = canonicalUrl(loaded.brand, '/').replace(/\/$/, '');
  const items = Array.from({ length: sitemapCountOf(paths) }, (_, i) => `<sitemap><loc>${xmlEscape(`${base}/sitemaps/${i}.xml`)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${items.join('')}</sitemapindex>\n`;
}

/** URLs per piece of sitemapPieces: ~80 KB of text, small enough to leave no large allocation behind. */
const PIECE_URLS = 1000;

/**
 * Sitemap `n` (0-based) of the brand in pieces of PIECE_URLS URLs, which joined are the file: a
 * sitemap can be written out without ever being one 4 MB string. Nothing when there is no sitemap `n`.
 */
export function* sitemapPieces(loaded: LoadedBrand, paths: readonly string[], n: number): Generator<string> {
  if (!Number.isInteger(n) || n < 0 || n >= sitemapCountOf(paths)) return;
  const end = Math.min(paths.length, (n + 1) * SITEMAP_MAX_URLS);
  let piece = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">';
  for (let i = n * SITEMAP_MAX_URLS, k = 0; i < end; i++, k++) {
    if (k === PIECE_URLS) {
      yield piece;
      piece = '';
      k = 0;
    }
    piece += `${i > n * SITEMAP_MAX_URLS ? '\n' : ''}<url><loc>${xmlEscape(canonicalUrl(loaded.brand, paths[i]!))}</loc></url>`;
  }
  yield `${piece}</urlset>\n`;
}

export function sitemapXmlOf(loaded: LoadedBrand, paths: readonly string[], n: number): string | undefined {
  const pieces = [...sitemapPieces(loaded, paths, n)];
  return pieces.length ? pieces.join('') : undefined;
}
