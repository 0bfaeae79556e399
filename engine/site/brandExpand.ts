/**
 * What a brand file writes once and the engine spells out, before anything else reads the brand:
 *
 * - named link lists: a brand's "linkLists" holds each list of links it shows in more than one
 *   place (a menu, a footer column, a link grid); those places give the list's name instead of
 *   repeating the links. A list several brands show (the Legal column of the US brands) is a
 *   shared part, brands/parts/<name>.json, named the same way;
 * - block and route parts: a layout of the brand names a shared part of blocks among its blocks,
 *   { "part": "<name>" }, and gets its blocks in that place; the brand's routes name a part of
 *   routes the same way (engine/site/sharedParts.ts);
 * - the apply settings: a brand that leaves out "apply" gets its product's (DEFAULT_APPLY);
 * - content sections: "contentSections": ["blog", "hub"] adds the routes of those sections after
 *   the brand's own, rather than every brand listing the same seven blog routes (a route the
 *   brand writes with one of their paths is its own instead).
 *
 * The brand the rest of the engine sees is the spelt-out one (the generated Brand type describes
 * it), so pages render exactly as if the file had written everything out. A problem found later
 * inside a spelt-out part is reported where the file wrote it (`fileFor`).
 */
import { BLOCK_LINK_LIST_FIELDS, type Block, type Brand, type Layout, type Links, type Route } from '../../schemas/brand.types';
import { blocksWhereLinksGo, expandParts, pointerVia, type Moved, type SharedPart } from './sharedParts';
import { encodePointer } from '../validate/locate';

export type { SharedPart } from './sharedParts';

export type ContentSection = NonNullable<Brand['contentSections']>[number];

const entry = (moreHeading: string, moreLabel: string, morePath: string) => ({ moreHeading, moreLabel, morePath });

/** The routes each content section adds, in order (the content layouts are shared: brands/layouts/content-*.json). */
export const CONTENT_SECTION_ROUTES: Readonly<Record<ContentSection, readonly Route[]>> = {
  blog: [
    { path: '/blog/{page?}', layout: 'content-blog-index' },
    { path: '/blog/{list}/{page?}', layout: 'content-blog-list' },
    { path: '/blog/{list}/{slug}', layout: 'content-article', content: 'article' },
    { path: '/tag', layout: 'content-tags' },
    { path: '/tag/{slug}', layout: 'content-tag', content: 'tag' },
    { path: '/author', layout: 'content-authors' },
    { path: '/author/{slug}', layout: 'content-author', content: 'author' },
  ],
  hub: [
    { path: '/hub', layout: 'content-hub' },
    { path: '/hub/{slug}', layout: 'content-entry', content: 'hub', layoutParams: entry('Keep learning', 'hub entries', 'hub') },
  ],
  answers: [
    { path: '/answers/{page?}', layout: 'content-answers' },
    { path: '/answers/{slug}', layout: 'content-entry', content: 'answer', layoutParams: entry('More help', 'answers', 'answers') },
  ],
};

/** The apply settings of a brand that writes none: title brands apply on /apply-title-loans (SPEC), the others on /apply. */
export const defaultApply = (product: Brand['product']): Brand['apply'] =>
  product === 'title' ? { path: '/apply-title-loans', amountParam: 'requestedamount' } : { path: '/apply', amountParam: 'requested_amount' };

export interface ExpandProblem {
  pointer: string;
  message: string;
}

export interface ExpandedBrand {
  brand: Brand;
  problems: ExpandProblem[];
  /** Where the file wrote what a pointer into the spelt-out brand names (itself when the file wrote it there). */
  fileFor(pointer: string): string;
}

/** A place that may hold links or a link list's name, as written in the file (before expansion the types do not hold). */
type LinksField = Links | string;

export function expandBrand(source: Brand, parts: ReadonlyMap<string, SharedPart> = new Map()): ExpandedBrand {
  const problems: ExpandProblem[] = [];
  // where a spelt-out part comes from; `whole`: the file wrote it as one entry (a section name, a shared part's name)
  const moved: Moved[] = [];
  // where each block of a layout that names block parts was written (looked up after `moved`)
  const shifted: Moved[] = [];
  const lists = source.linkLists ?? {};
  const used = new Set<string>();
  const names = Object.keys(lists);

  const links = (value: LinksField, at: (string | number)[]): Links => {
    if (typeof value !== 'string') return value;
    const list = Object.hasOwn(lists, value) ? lists[value] : undefined;
    const part = parts.get(value);
    if (list) {
      used.add(value);
      moved.push([encodePointer(at), encodePointer(['linkLists', value])]);
      return list;
    }
    const wrongKind = part && blocksWhereLinksGo(value, part);
    if (part && !wrongKind) {
      // a problem inside the shared links (a page this brand lacks) is this brand's: reported at its reference
      moved.push([encodePointer(at), encodePointer(at), true]);
      return part.links!;
    }
    const shared = [...parts].filter(([, p]) => p.links).map(([name]) => name);
    problems.push({
      pointer: encodePointer(at),
      message:
        wrongKind ||
        `there is no link list "${value}" in this brand's "linkLists" (${names.length ? `it has: ${names.join(', ')}` : 'it has none'})` +
          ` nor a shared one in brands/parts/ (${shared.length ? `there are: ${shared.join(', ')}` : 'there are none'})`,
    });
    // the brand is kept out for this problem; later checks see no links rather than a made-up one
    return [] as unknown as Links;
  };
  for (const name of names.filter((n) => parts.has(n)))
    problems.push({
      pointer: encodePointer(['linkLists', name]),
      message: `the link list "${name}" has the name of the shared part ${parts.get(name)!.file}, which it would hide for this brand; rename it, or delete it and use the shared one`,
    });

  const nav = {
    ...source.nav,
    items: source.nav.items.map((item, i) =>
      item.children === undefined ? item : { ...item, children: links(item.children as LinksField, ['nav', 'items', i, 'children']) },
    ),
  };
  const footer = {
    ...source.footer,
    columns: source.footer.columns.map((col, i) => ({ ...col, links: links(col.links as LinksField, ['footer', 'columns', i, 'links']) })),
  };
  // a bad part reference is reported where the file wrote it, which no later shift may move
  const partProblems = (found: readonly ExpandProblem[]) => {
    problems.push(...found);
    for (const p of found) moved.push([p.pointer, p.pointer]);
  };
  // a block field that may name a link list (its schema says so: BLOCK_LINK_LIST_FIELDS) gets the list's links
  const withLists = (block: Block, at: (string | number)[]): Block => {
    const fields = BLOCK_LINK_LIST_FIELDS[block.type];
    if (!fields) return block;
    const named = block as unknown as Record<string, LinksField>;
    return { ...block, ...Object.fromEntries(fields.map((field) => [field, links(named[field]!, [...at, field])])) };
  };
  const layouts = source.layouts
    ? Object.fromEntries(
        Object.entries(source.layouts).map(([name, layout]): [string, Layout] => {
          const at = ['layouts', name, 'blocks'];
          const expanded = expandParts('blocks', layout.blocks, parts, at);
          partProblems(expanded.problems);
          shifted.push(...expanded.moved);
          return [name, { ...layout, blocks: expanded.entries.map((block, i) => withLists(block, [...at, i])) as Layout['blocks'] }];
        }),
      )
    : undefined;
  for (const name of names.filter((n) => !used.has(n)))
    problems.push({
      pointer: encodePointer(['linkLists', name]),
      message: `no menu, footer column or linkGrid block names the link list "${name}", so it shows nowhere; use it ("links": "${name}") or remove it`,
    });

  // A route the brand writes itself with a section's path replaces the section's, at the brand's
  // place in the order (the sitemap lists pages in route order).
  // route parts first: the brand's own routes are those it names too
  const ownRoutes = expandParts('routes', source.routes, parts, ['routes']);
  partProblems(ownRoutes.problems);
  shifted.push(...ownRoutes.moved);
  const own = ownRoutes.entries.length;
  const ownPaths = new Set(ownRoutes.entries.map((r) => r.path));
  const added = (source.contentSections ?? []).flatMap((section, j) =>
    CONTENT_SECTION_ROUTES[section].filter((route) => !ownPaths.has(route.path)).map((route) => ({ route, j })),
  );
  added.forEach(({ j }, k) => moved.push([`/routes/${own + k}`, encodePointer(['contentSections', j]), true]));

  // spelt out, the brand is itself a valid brand file that says the same (written back, it loads the same)
  const { linkLists: _lists, contentSections: _sections, ...rest } = source;
  const apply = (source.apply as Brand['apply'] | undefined) ?? defaultApply(source.product);
  const brand: Brand = {
    ...rest,
    apply,
    nav,
    footer,
    routes: [...ownRoutes.entries, ...added.map((a) => a.route)] as Brand['routes'],
    ...(layouts ? { layouts } : {}),
  };
  return {
    brand,
    problems,
    fileFor: (pointer) => pointerVia([...moved, ...shifted], pointer),
  };
}
