/**
 * What a content list shows, counted the same way by the page that shows it (blocks/contentList)
 * and by the sitemap (engine/site/seo/sitemap.ts). A CMS counts every entry it holds; a list
 * leaves some out (an entry at a path the brand's routes do not serve, an article under a category
 * that is not one, a topic without an article with a page on the brand, a second entry under one
 * slug), so a page count taken from the CMS would link to list pages that have nothing to show,
 * and a list that shows nothing would look like one that does.
 */
import { contentPath } from '../content/paths';
import type { Collection, ContentSource, Entry, ListQuery, ListResult } from '../content/types';
import type { CompiledRoute } from './routes';

/** Entries per call when a list is read whole: the most a Strapi v4 call returns by default (its maxLimit). */
const READ_ALL_PAGE_SIZE = 100;

/**
 * The most calls one list is read in (10,000 entries, far past any brand's blog): the page count is
 * the CMS's word, and a CMS that keeps saying there is more (a bug, a proxy answering every page
 * alike) must not hold a render in an endless loop of calls.
 */
export const READ_ALL_MAX_CALLS = 100;

/** The pages of a list, read in turn (at most READ_ALL_MAX_CALLS; an empty page or the last one ends it). */
async function* listPages(read: (pagination: { page: number; pageSize: number }) => Promise<ListResult>): AsyncGenerator<Entry[]> {
  for (let page = 1; page <= READ_ALL_MAX_CALLS; page++) {
    const r = await read({ page, pageSize: READ_ALL_PAGE_SIZE });
    yield r.data;
    if (page >= r.meta.pagination.pageCount || r.data.length === 0) return;
  }
}

/** Every entry the query names, in its order, read a page at a time (at most READ_ALL_MAX_CALLS pages; an empty page ends it). */
export async function allEntries(source: ContentSource, collection: Collection, query: Omit<ListQuery, 'pagination'>): Promise<Entry[]> {
  const out: Entry[] = [];
  for await (const data of listPages((pagination) => source.list(collection, { ...query, pagination }))) out.push(...data);
  return out;
}

/** What decides whether an entry has a page to link to. */
export interface ShownChecks {
  /** is there a category with this slug (an article's page is under its category's) */
  isCategory: (slug: string) => boolean | Promise<boolean>;
  /** does the brand have an article with a page under this category or tag (a topic's page lists them) */
  hasArticles: (topic: 'category' | 'tag', slug: string) => boolean | Promise<boolean>;
  /** do the brand's routes serve this path (an entry's page is at its url; a disabled path or one no route has is a 404) */
  isPage: (path: string) => boolean;
}

/**
 * The entries a list shows, in the order given: only those with a page (at a path the brand's
 * routes serve; a category or tag only where the brand has an article with a page under it, an
 * article only under a category that is one), and two entries under one slug once (the first:
 * they are one page).
 */
export async function shownEntries(collection: Collection, entries: readonly Entry[], checks: ShownChecks): Promise<Entry[]> {
  const asked = new Map<string, Promise<boolean>>();
  const once = (key: string, ask: () => boolean | Promise<boolean>) => {
    let answer = asked.get(key);
    if (!answer) asked.set(key, (answer = Promise.resolve(ask())));
    return answer;
  };
  const hasPage = (e: Entry): Promise<boolean> => {
    const { slug, category, url } = e.attributes;
    if (!checks.isPage(url)) return Promise.resolve(false);
    if (collection === 'category' || collection === 'tag') return once(slug, () => checks.hasArticles(collection, slug));
    if (collection === 'article') return category === null ? Promise.resolve(false) : once(category, () => checks.isCategory(category));
    return Promise.resolve(true);
  };
  const keep = await Promise.all(entries.map(hasPage));
  const withPage = entries.filter((_, i) => keep[i]);
  const seen = new Set<string>();
  return withPage.filter((e) => !seen.has(e.attributes.url) && !!seen.add(e.attributes.url));
}

/**
 * Whether a list would show anything, read only as far as its first entry with a page: one entry
 * is asked for first (almost always it has its page, and the answer costs what a count does), the
 * rest a page at a time only when it has none.
 */
export async function anyShown(
  collection: Collection,
  read: (pagination: { page: number; pageSize: number }) => Promise<ListResult>,
  checks: ShownChecks,
): Promise<boolean> {
  const first = await read({ page: 1, pageSize: 1 });
  if ((await shownEntries(collection, first.data, checks)).length) return true;
  if (!first.data.length || first.meta.pagination.total <= 1) return false;
  for await (const data of listPages(read)) if ((await shownEntries(collection, data, checks)).length) return true;
  return false;
}

/**
 * Is the route the page its collection's entries' pages are under (/hub for /hub/{slug}, /tag,
 * /author, /answers), with nothing else to name: a list of that collection there, unfiltered, is
 * what the page is for. An older address whose canonical address is that page is that page too.
 */
export function isCollectionPage(collection: Collection, route: CompiledRoute): boolean {
  const entryPath = contentPath(collection, 'entry', 'list');
  return route.params.length === 0 && (route.canonical ?? route.path) === entryPath.slice(0, entryPath.lastIndexOf('/'));
}
