/**
 * A list of content (articles, answers, categories…): its items are loaded before the page
 * renders. A paginated list is the page's own: past its last page, or on a later page whose
 * entries are all left out (no page of their own), the page is a 404; empty on its first page,
 * the page answers but is kept out of search results; a failure fails the page. Any other list that fails only marks this block, which then shows
 * "Oh snap! There was a problem loading this content" while the page still renders.
 */
import type { ContentListData } from '../../engine/site/contentLoad';
import type { Entry, ListFilters } from '../../engine/content/types';
import { DEFAULT_PAGE_SIZE } from '../../engine/content/types';
import type { LinkView } from '../../engine/site/model';
import { pageLinks, withoutPageNumber } from '../../engine/site/links';
import type { BlockSpec } from '../../engine/site/blockSpec';

export type ContentListView = Omit<ContentListData, 'pages'> & { pages?: { current: number; count: number; links: (LinkView & { current: boolean })[] } };

export const contentListSpec: BlockSpec<'contentList', ContentListView, ContentListData> = {
  content: {
    decidesPage: (block) => !!block.paginate,
    sitemapList: (block) => (block.paginate ? { collection: block.collection, pageSize: block.pageSize ?? DEFAULT_PAGE_SIZE } : undefined),
    load: async (block, { source, match, brand, publicationState, shownHere, hasArticles, one, degrade, nothingListed, index }) => {
      const pageSize = block.pageSize ?? DEFAULT_PAGE_SIZE;
      const page = block.paginate ? (match.params.page ?? 1) : 1;
      const filters: ListFilters = { ...shownHere(block.collection) };
      if (block.filterBy === 'list') filters.category = match.params.list!;
      if (block.filterBy === 'tag') filters.tag = match.params.slug!;
      if (block.filterBy === 'author') filters.author = match.params.slug!;
      try {
        const sort = block.collection === 'category' || block.collection === 'tag' || block.collection === 'author' ? ['title:asc'] : ['publishedAt:desc'];
        const result = await source.list(block.collection, { filters, pagination: { page, pageSize }, sort, publicationState });
        const { pageCount } = result.meta.pagination;
        if (block.paginate && page > Math.max(1, pageCount)) return 'notFound';
        const topic = block.collection === 'category' || block.collection === 'tag' ? block.collection : undefined;
        let shown = topic
          ? (await Promise.all(result.data.map(async (e) => ((await hasArticles(topic, e.attributes.slug)) ? e : undefined)))).filter((e): e is Entry => !!e)
          : result.data;
        if (block.collection === 'article') {
          // an article is a page only under a category that is one (a CMS does not check): no link to a 404
          // (a check that fails lists them all: this list is not to fail for it)
          const named = [...new Set(shown.map((e) => e.attributes.category).filter((c): c is string => !!c))];
          const known = await Promise.all(named.map(async (c) => ((await one('category', c)) ? c : undefined)))
            .then((found) => new Set(found.filter(Boolean)))
            .catch(() => new Set(named));
          shown = shown.filter((e) => e.attributes.category !== null && known.has(e.attributes.category));
        }
        // two entries under one slug are one page (the first): list it once
        const unique = shown.filter((e, i) => shown.findIndex((o) => o.attributes.url === e.attributes.url) === i);
        if (block.paginate && !unique.length) {
          // a later page in the service's count whose entries were all left out above: no page to show
          if (page > 1) return 'notFound';
          // the list's first page, empty (nothing published yet): the page answers, saying so, kept out of search results
          nothingListed();
        }
        return {
          items: unique.map((e) => ({ title: e.attributes.h1, href: e.attributes.url, description: e.attributes.description, date: e.attributes.publishedAt })),
          ...(block.paginate && pageCount > 1 ? { pages: { current: page, count: pageCount } } : {}),
        };
      } catch (err) {
        if (block.paginate) throw err; // the page's own list: no page without it
        console.error(`[content] ${brand.id} block ${index} (${block.collection}): ${(err as Error).message}`);
        degrade();
        return { items: [], error: true };
      }
    },
  },
  data: (_block, { params, path }, list) => {
    if (!list) return { items: [], error: true };
    const { pages, ...rest } = list;
    return { ...rest, ...(pages ? { pages: { ...pages, links: pageLinks(withoutPageNumber(path, params.page), pages.current, pages.count) } } : {}) };
  },
  check: (block, { needs, hasParam }) => {
    if (block.filterBy === 'list') needs('{list}', (r) => hasParam(r, 'list'));
    if (block.filterBy === 'tag') needs('{slug} with "content": "tag"', (r) => hasParam(r, 'slug') && r.content === 'tag');
    if (block.filterBy === 'author') needs('{slug} with "content": "author"', (r) => hasParam(r, 'slug') && r.content === 'author');
    if (block.paginate) needs('{page?}', (r) => hasParam(r, 'page'));
  },
};
