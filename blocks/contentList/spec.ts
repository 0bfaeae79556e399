/**
 * A list of content (articles, answers, categories…): its items are loaded before the page
 * renders. The page's own list (a paginated one, or an unfiltered one on the page its entries'
 * pages are under: /hub, /tag, /author) is read whole and counted by what it shows
 * (engine/site/contentLists.ts), so its page links and the sitemap reach only pages with something
 * on them: past its last page the page is a 404; showing nothing, it says so and the page answers
 * but is kept out of search results. A paginated list that fails fails the page. Any other list
 * that fails only marks this block, which then shows "Oh snap! There was a problem loading this
 * content" while the page still renders.
 */
import type { ContentListData } from '../../engine/site/contentLoad';
import type { ListFilters } from '../../engine/content/types';
import { DEFAULT_PAGE_SIZE } from '../../engine/content/types';
import type { LinkView } from '../../engine/site/model';
import { pageLinks, withoutPageNumber } from '../../engine/site/links';
import type { BlockOf, BlockSpec } from '../../engine/site/blockSpec';
import { allEntries, isCollectionPage, shownEntries } from '../../engine/site/contentLists';
import type { CompiledRoute } from '../../engine/site/routes';

export type ContentListView = Omit<ContentListData, 'pages'> & { pages?: { current: number; count: number; links: (LinkView & { current: boolean })[] } };

const ownList = (block: BlockOf<'contentList'>, route: CompiledRoute) =>
  block.paginate || ((block.filterBy ?? 'none') === 'none' && isCollectionPage(block.collection, route))
    ? { collection: block.collection, pageSize: block.pageSize ?? DEFAULT_PAGE_SIZE, paginated: !!block.paginate }
    : undefined;

export const contentListSpec: BlockSpec<'contentList', ContentListView, ContentListData> = {
  content: {
    ownList,
    load: async (block, { source, match, brand, publicationState, shownHere, shownChecks, degrade, nothingListed, index }) => {
      const pageSize = block.pageSize ?? DEFAULT_PAGE_SIZE;
      const page = block.paginate ? (match.params.page ?? 1) : 1;
      const own = !!ownList(block, match.route);
      const filters: ListFilters = { ...shownHere(block.collection) };
      if (block.filterBy === 'list') filters.category = match.params.list!;
      if (block.filterBy === 'tag') filters.tag = match.params.slug!;
      if (block.filterBy === 'author') filters.author = match.params.slug!;
      try {
        const sort = block.collection === 'category' || block.collection === 'tag' || block.collection === 'author' ? ['title:asc'] : ['publishedAt:desc'];
        const query = { filters, sort, publicationState };
        const listed = own
          ? await allEntries(source, block.collection, query)
          : (await source.list(block.collection, { ...query, pagination: { page: 1, pageSize } })).data;
        const shown = await shownEntries(block.collection, listed, shownChecks);
        const pageCount = Math.ceil(shown.length / pageSize);
        if (block.paginate && page > Math.max(1, pageCount)) return 'notFound';
        // the page's own list, empty (nothing published yet): the page answers, saying so, kept out of search results
        if (own && !shown.length) nothingListed();
        return {
          items: shown
            .slice((page - 1) * pageSize, page * pageSize)
            .map((e) => ({ title: e.attributes.h1, href: e.attributes.url, description: e.attributes.description, date: e.attributes.publishedAt })),
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
