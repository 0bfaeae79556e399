/**
 * What a content list shows, counted the same way by the page that shows it (blocks/contentList)
 * and by the sitemap (engine/site/seo/sitemap.ts). A CMS counts every entry it holds; a list
 * leaves some out (an article under a category that is not one, a topic without articles for the
 * brand, a second entry under one slug), so a page count taken from the CMS would link to list
 * pages that have nothing to show, and a list that shows nothing would look like one that does.
 */
import { contentPath } from '../content/paths';
import type { Collection, ContentSource, Entry, ListQuery } from '../content/types';
import type { CompiledRoute } from './routes';

/** Entries per call when a list is read whole: the most a Strapi v4 call returns by default (its maxLimit). */
const READ_ALL_PAGE_SIZE = 100;

/**
 * The most calls one list is read in (10,000 entries, far past any brand's blog): the page count is
 * the CMS's word, and a CMS that keeps saying there is more (a bug, a proxy answering every page
 * alike) must not hold a render in an endless loop of calls.
 */
export const READ_ALL_MAX_CALLS = 100;

/** Every entry the query names, in its order, read a page at a time (at most READ_ALL_MAX_CALLS pages; an empty page ends it). */
export async function allEntries(source: ContentSource, collection: Collection, query: Omit<ListQuery, 'pagination'>): Promise<Entry[]> {
  const out: Entry[] = [];
  for (let page = 1; page <= READ_ALL_MAX_CALLS; page++) {
    const r = await source.list(collection, { ...query, pagination: { page, pageSize: READ_ALL_PAGE_SIZE } });
    out.push(...r.data);
    if (page >= r.meta.pagination.pageCount || r.data.length === 0) break;
  }
  return out;
}

/** What decides whether an entry has a page to link to. */
export interface ShownChecks {
  /** is there a category with this slug (an article's page is under its category's) */
  isCategory: (slug: string) => boolean | Promise<boolean>;
  /** does the brand have articles under this category or tag (a topic's page lists them) */
  hasArticles: (topic: 'category' | 'tag', slug: string) => boolean | Promise<boolean>;
}

/**
 * The entries a list shows, in the order given: only those with a page (a category or tag only
 * where the brand has articles under it, an article only under a category that is one), and two
 * entries under one slug once (the first: they are one page).
 */
export async function shownEntries(collection: Collection, entries: readonly Entry[], checks: ShownChecks): Promise<Entry[]> {
  const asked = new Map<string, Promise<boolean>>();
  const once = (key: string, ask: () => boolean | Promise<boolean>) => {
    let answer = asked.get(key);
    if (!answer) asked.set(key, (answer = Promise.resolve(ask())));
    return answer;
  };
  const hasPage = (e: Entry): Promise<boolean> => {
    const { slug, category } = e.attributes;
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
 * Is the route the page its collection's entries' pages are under (/hub for /hub/{slug}, /tag,
 * /author, /answers), with nothing else to name: a list of that collection there, unfiltered, is
 * what the page is for.
 */
export function isCollectionPage(collection: Collection, route: CompiledRoute): boolean {
  const entryPath = contentPath(collection, 'entry', 'list');
  return route.params.length === 0 && route.path === entryPath.slice(0, entryPath.lastIndexOf('/'));
}
