/**
 * The content a page needs, fetched before it renders (getStaticProps):
 * - the item its {slug} names and the category its {list} names — missing → the page is a 404;
 * - each contentList block's items — a paginated list past its last page → 404;
 * - a failure of the page's own content throws (Next keeps serving the last good version, or
 *   shows the error page); a failure of a secondary list only marks that block, which then
 *   shows "Oh snap! There was a problem loading this content" while the page still renders.
 */
import type { Brand, Layout } from '../../schemas/brand.types';
import type { RouteMatch } from '../routes';
import { markdownToSafeHtml } from './markdown';
import { DEFAULT_PAGE_SIZE, type ContentSource, type Entry, type ListFilters, type Market, type PublicationState } from './types';

export interface ListItemView {
  title: string;
  href: string;
  description: string;
  date: string | null;
}

export interface ContentListData {
  items: ListItemView[];
  pages?: { current: number; count: number };
  error?: true;
}

export interface ContentBodyData {
  collection: string;
  html: string;
  h1: string;
  url: string;
  publishedAt: string | null;
  updatedAt: string;
  author?: { name: string; href: string };
  tags: { name: string; href: string }[];
  category?: { name: string; href: string };
  faq: { question: string; answer: string }[];
}

export interface PageContent {
  vars: Record<string, string>;
  entry?: Entry;
  category?: Entry;
  body?: ContentBodyData;
  lists: Record<number, ContentListData>;
  /** true when a secondary block failed: revalidate soon */
  degraded: boolean;
}

export const needsContent = (match: RouteMatch, layout: Layout): boolean =>
  match.params.slug !== undefined || match.params.list !== undefined || layout.blocks.some((b) => b.type === 'contentList' || b.type === 'contentBody');

const marketOf = (brand: Brand): Market => brand.country.toLowerCase() as Market;

export async function loadPageContent(
  source: ContentSource,
  brand: Brand,
  match: RouteMatch,
  layout: Layout,
  publicationState: PublicationState,
): Promise<PageContent | 'notFound'> {
  const brandFilter = { id: brand.id, market: marketOf(brand) };
  const one = async (collection: Parameters<ContentSource['list']>[0], slug: string, filters: ListFilters = {}) =>
    (await source.list(collection, { filters: { slug, ...filters }, pagination: { page: 1, pageSize: 1 }, publicationState })).data[0];
  const shownHere = (c: string) => (c === 'category' || c === 'tag' ? {} : { brand: brandFilter });

  let category: Entry | undefined;
  if (match.params.list !== undefined) {
    category = await one('category', match.params.list);
    if (!category) return 'notFound';
    const articles = await source.list('article', { filters: { category: category.attributes.slug, brand: brandFilter }, pagination: { page: 1, pageSize: 1 }, publicationState });
    if (!articles.meta.pagination.total) return 'notFound'; // no empty category pages
  }
  /** Categories and tags are shown only where this brand has articles under them. */
  const hasArticles = async (filter: 'category' | 'tag', slug: string) =>
    (await source.list('article', { filters: { [filter]: slug, brand: brandFilter }, pagination: { page: 1, pageSize: 1 }, publicationState })).meta.pagination.total > 0;
  let entry: Entry | undefined;
  const collection = match.route.content;
  if (match.params.slug !== undefined && collection) {
    entry = await one(collection, match.params.slug, shownHere(collection));
    if (!entry) return 'notFound';
    if (category && collection === 'article' && entry.attributes.category !== category.attributes.slug) return 'notFound';
    if (collection === 'tag' && !(await hasArticles('tag', entry.attributes.slug))) return 'notFound';
  }
  const named = entry ?? category;
  const vars: Record<string, string> = named
    ? { 'content.title': named.attributes.title, 'content.h1': named.attributes.h1, 'content.description': named.attributes.description }
    : {};

  const lists: Record<number, ContentListData> = {};
  let degraded = false;
  for (const [i, block] of layout.blocks.entries()) {
    if (block.type !== 'contentList') continue;
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
      const shown = topic ? (await Promise.all(result.data.map(async (e) => ((await hasArticles(topic, e.attributes.slug)) ? e : undefined)))).filter((e): e is Entry => !!e) : result.data;
      lists[i] = {
        items: shown.map((e) => ({ title: e.attributes.h1, href: e.attributes.url, description: e.attributes.description, date: e.attributes.publishedAt })),
        ...(block.paginate && pageCount > 1 ? { pages: { current: page, count: pageCount } } : {}),
      };
    } catch (err) {
      if (block.paginate) throw err; // the page's own list: no page without it
      console.error(`[content] ${brand.id} block ${i} (${block.collection}): ${(err as Error).message}`);
      lists[i] = { items: [], error: true };
      degraded = true;
    }
  }

  let body: ContentBodyData | undefined;
  if (entry && layout.blocks.some((b) => b.type === 'contentBody')) {
    const a = entry.attributes;
    const authorSlug = a.extras?.author;
    const author = authorSlug ? await one('author', authorSlug) : undefined;
    const tags = await Promise.all((a.extras?.tags ?? []).map((t) => one('tag', t)));
    const cat = a.category && collection === 'article' ? (category ?? (await one('category', a.category))) : undefined;
    body = {
      collection: collection!,
      html: markdownToSafeHtml(a.extras?.body ?? ''),
      h1: a.h1,
      url: a.url,
      publishedAt: a.publishedAt,
      updatedAt: a.updatedAt,
      ...(author ? { author: { name: author.attributes.h1, href: author.attributes.url } } : {}),
      tags: tags.filter((t): t is Entry => !!t).map((t) => ({ name: t.attributes.h1, href: t.attributes.url })),
      ...(cat ? { category: { name: cat.attributes.h1, href: cat.attributes.url } } : {}),
      faq: a.extras?.faq ?? [],
    };
  }
  return { vars, ...(entry ? { entry } : {}), ...(category ? { category } : {}), ...(body ? { body } : {}), lists, degraded };
}
