/**
 * brand + path → page model: the layout's blocks resolved by their specs (blocks/<type>/spec.ts, handed in with the catalog),
 * with the brand's view, its structured data (engine/site/seo/structuredData.ts) and, on a blog host,
 * its links to the main site (engine/site/blogLinks.ts). Pure apart from reading the catalog and the
 * city table: the same function serves getStaticProps and the tests. Which page a path names is
 * engine/site/pageMatch.ts.
 */
import type { BlockType, Brand, Layout } from '../../schemas/brand.types';
import { TITLE_APPLY } from '../browser/applyUrl';
import { unavailableHere } from './availability';
import { specOf, type BlockOf, type BlockSpecs, type ResolveContext } from './blockSpec';
import { blogHostView, withMainSiteLinks } from './blogLinks';
import { sharedBrandView } from './brandView';
import type { Catalog } from './catalog';
import { leadInFacts, leadInRoles } from './leadIn';
import type { PageContent } from './contentLoad';
import { isBlogPath } from './hosts';
import { showsForLoanType } from './loanTypeText';
import type { BlockData, PageModel, ResolvedBlock, ResolvedBlockOf } from './model';
import { capitalizeFirst } from '../geo/names';
import { canonicalPath, isPageByRoutes, matchPath, NOT_FOUND_PATH } from './pageMatch';
import { pageVars, stateOf } from './routeParams';
import type { RouteMatch } from './routes';
import { canonicalUrl, origin } from './seo/seo';
import { pageJsonLd } from './seo/structuredData';
import { templateFieldsOf } from './templateFields';
import { fill, fillDeep } from './templates';

/** One block of the page: placeholders filled, then its spec's props and data (blocks/<type>/spec.ts). */
function resolveBlock<K extends BlockType>(specs: BlockSpecs, block: BlockOf<K>, index: number, ctx: ResolveContext, loaded: unknown): ResolvedBlockOf<K> {
  const spec = specOf(specs, block.type as K);
  const filled = fillDeep(block, ctx.vars, templateFieldsOf(block.type));
  // A heading that starts with a lower-case value ("title loans in Houston: …") starts with a capital.
  if ('heading' in filled && typeof filled.heading === 'string') filled.heading = capitalizeFirst(filled.heading);
  const props = spec.props ? spec.props(filled, ctx) : filled;
  // The generated map is typed per block type (blocks/generated/specs.ts), so its resolver gives BlockData[K].
  const data = (spec.data ? spec.data(filled, ctx, loaded) : null) as BlockData[K];
  return { ...props, key: `${index}-${block.type}`, data };
}

function notFoundLayout(brand: Brand): Layout {
  const links = brand.nav.items.flatMap((i) => (i.children ? i.children : i.href ? [{ label: i.label, href: i.href }] : [])).slice(0, 9);
  return {
    title: 'Page not found',
    description: `The page you asked for is not on ${brand.name}. Here are the pages borrowers use most, or start from the home page.`,
    blocks: [
      { type: 'hero', heading: 'We could not find that page', text: 'The link may be old or mistyped. These pages may help instead.' },
      { type: 'linkGrid', heading: 'Popular pages', links: [{ label: `${brand.name} home`, href: '/' }, ...links] },
    ],
  };
}

/** knownMatch: the route match the caller already made for this path (getStaticProps), not made again. */
export function resolvePage(
  catalog: Catalog,
  brandId: string,
  path: string,
  now = new Date(),
  content?: PageContent,
  knownMatch?: RouteMatch,
  traceKey?: () => string | undefined,
): PageModel | undefined {
  const loaded = catalog.brands.get(brandId);
  if (!loaded) return undefined;
  const { brand } = loaded;
  const year = now.getFullYear();
  const match = path === NOT_FOUND_PATH ? undefined : (knownMatch ?? matchPath(loaded, path));
  const layout = match ? loaded.layout(match.route.layout, match.route.layoutParams) : undefined;
  const params = match?.params ?? {};
  const vars = { ...pageVars(brand, params, year), ...content?.vars };
  const page = layout ?? notFoundLayout(brand);
  const blocked = match ? unavailableHere(brand, params) : undefined;
  const ctx: ResolveContext = {
    brand,
    params,
    vars,
    state: stateOf(params),
    path,
    isPage: (p) => isPageByRoutes(loaded, p),
    itemFill: (template, itemVars) => fill(fill(template, itemVars), vars),
    ...(traceKey ? { traceKey } : {}),
  };
  const shown = page.blocks.filter((b) => showsForLoanType(b, params.loanType));
  const opening = blocked ? [] : leadInRoles(shown.map((b) => leadInFacts(b.type, loaded.specs)));
  const blocks = shown
    .map((b, i) =>
      blocked && specOf(loaded.specs, b.type).applyWidget
        ? undefined
        : resolveBlock(loaded.specs, b, i, opening[i] ? { ...ctx, leadIn: opening[i] } : ctx, content?.blocks[i]),
    )
    .filter((b): b is ResolvedBlock => b !== undefined);
  const onApplyPage = path === brand.apply.path || path === TITLE_APPLY.path;
  const pagePath = match ? path : NOT_FOUND_PATH;

  // the page's own path, or the path it is known by when another route shows it too
  const knownAs = match ? canonicalPath(loaded, path, match) : '/';
  const jsonLd = pageJsonLd({ loaded, path: knownAs, match, vars, blocks, title: page.title, content });

  const view = sharedBrandView(loaded, year, onApplyPage);
  const offBlogHost = brand.blogHost && match && isBlogPath(path) ? origin(brand) : undefined;
  return {
    brand: offBlogHost ? blogHostView(view, offBlogHost) : view,
    status: match && layout ? 200 : 404,
    path: pagePath,
    // page 2… of a list say so: otherwise every page of the list has the first one's title
    title: `${fill(page.title, vars)}${params.page ? `, page ${params.page}` : ''} | ${brand.config.pageTitle}`,
    description: fill(page.description, vars),
    canonical: canonicalUrl(brand, knownAs),
    blocks: offBlogHost ? withMainSiteLinks(blocks, offBlogHost) : blocks,
    ...(blocked || onApplyPage || blocks.some((b) => specOf(loaded.specs, b.type).isApplication || specOf(loaded.specs, b.type).noApply)
      ? { noApply: true }
      : {}),
    jsonLd,
    ...(content?.degraded ? { revalidate: DEGRADED_REVALIDATE_SECONDS } : {}),
    ...(content?.empty ? { noindex: true } : {}),
  };
}

/** A page with a failed content block is rebuilt soon, so the block recovers when the service does. */
export const DEGRADED_REVALIDATE_SECONDS = 30;
