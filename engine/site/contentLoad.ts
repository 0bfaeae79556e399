/**
 * The content a page needs, fetched before it renders (getStaticProps):
 * - the item its {slug} names and the category its {list} names — missing → the page is a 404, as
 *   is a category or tag without an article with a page on the brand (engine/site/contentLists.ts);
 * - what each block that needs content loads (its spec's content.load, blocks/<type>/spec.ts) — a
 *   block may make the page a 404 (a paginated list past its last page);
 * - a failure of the page's own content throws (Next keeps serving the last good version, or
 *   shows the error page); a block that fails on its own only marks itself and the page.
 */
import type { Brand, Layout } from '../../schemas/brand.types';
import { specOf, type BlockSpecs } from './blockSpec';
import type { LoadedBrand } from './catalog';
import { anyShown, type ShownChecks } from './contentLists';
import { matchPath } from './pageMatch';
import type { RouteMatch } from './routes';
import { listByCategory } from '../content/strapi';
import type { ContentSource, Entry, ListFilters, Market, PublicationState } from '../content/types';

// the blocks' content types live with the other content types (types.ts), which the block specs' types read
export type { ContentBodyData, ContentListData, ListItemView } from '../content/types';

export interface PageContent {
  vars: Record<string, string>;
  entry?: Entry;
  category?: Entry;
  /** what each block that needs content loaded, by its place in the layout */
  blocks: Record<number, unknown>;
  /** true when a secondary block failed: revalidate soon */
  degraded: boolean;
  /** true when the page's own list is empty (a blog with no articles yet): noindex while it is */
  empty?: true;
}

export const needsContent = (match: RouteMatch, layout: Layout, specs: BlockSpecs): boolean =>
  match.params.slug !== undefined || match.params.list !== undefined || layout.blocks.some((b) => specOf(specs, b.type).content);

const marketOf = (brand: Brand): Market => brand.country.toLowerCase() as Market;

export async function loadPageContent(
  source: ContentSource,
  loaded: LoadedBrand,
  match: RouteMatch,
  layout: Layout,
  publicationState: PublicationState,
): Promise<PageContent | 'notFound'> {
  const { brand, specs } = loaded;
  const brandFilter = { id: brand.id, market: marketOf(brand) };
  const one = async (collection: Parameters<ContentSource['list']>[0], slug: string, filters: ListFilters = {}) =>
    (await source.list(collection, { filters: { slug, ...filters }, pagination: { page: 1, pageSize: 1 }, publicationState })).data[0];
  const shownHere = (c: string) => (c === 'category' || c === 'tag' ? {} : { brand: brandFilter });

  const categories = new Map<string, Promise<boolean>>();
  const shownChecks: ShownChecks = {
    // a category check that fails counts the article as under one: a list is not to fail for it
    isCategory: (slug) => {
      let known = categories.get(slug);
      if (!known) categories.set(slug, (known = one('category', slug).then(Boolean, () => true)));
      return known;
    },
    isPage: (path) => matchPath(loaded, path) !== undefined,
    /**
     * Categories and tags have a page only where this brand has an article with a page under
     * them: an article the brand shows whose page is a 404 (under a category that is not one, at
     * a path the brand does not serve) would leave the topic's page empty.
     */
    hasArticles: (topic, slug) =>
      anyShown(
        'article',
        (pagination) => {
          const query = { filters: { brand: brandFilter }, pagination, publicationState };
          return topic === 'category'
            ? listByCategory(source, { categoryName: slug, query })
            : source.list('article', { ...query, filters: { ...query.filters, tag: slug } });
        },
        shownChecks,
      ),
  };

  let category: Entry | undefined;
  if (match.params.list !== undefined) {
    category = await one('category', match.params.list);
    if (!category) return 'notFound';
    categories.set(category.attributes.slug, Promise.resolve(true));
    if (!(await shownChecks.hasArticles('category', category.attributes.slug))) return 'notFound'; // no empty category pages
  }
  let entry: Entry | undefined;
  const collection = match.route.content;
  if (match.params.slug !== undefined && collection) {
    entry = await one(collection, match.params.slug, shownHere(collection));
    if (!entry) return 'notFound';
    if (category && collection === 'article' && entry.attributes.category !== category.attributes.slug) return 'notFound';
    if (collection === 'tag' && !(await shownChecks.hasArticles('tag', entry.attributes.slug))) return 'notFound';
  }
  const named = entry ?? category;
  const vars: Record<string, string> = named
    ? { 'content.title': named.attributes.title, 'content.h1': named.attributes.h1, 'content.description': named.attributes.description }
    : {};

  const blocks: Record<number, unknown> = {};
  let degraded = false;
  let empty = false;
  const ctx = {
    source,
    brand,
    match,
    publicationState,
    shownHere,
    one,
    shownChecks,
    ...(entry ? { entry } : {}),
    ...(category ? { category } : {}),
    degrade: () => void (degraded = true),
    nothingListed: () => void (empty = true),
  };
  for (const [index, block] of layout.blocks.entries()) {
    const needs = specOf(specs, block.type).content;
    if (!needs) continue;
    const loaded = await needs.load(block, { ...ctx, index });
    if (loaded === 'notFound') return 'notFound';
    if (loaded !== undefined) blocks[index] = loaded;
  }
  return { vars, ...(entry ? { entry } : {}), ...(category ? { category } : {}), blocks, degraded, ...(empty ? { empty: true as const } : {}) };
}
