/**
 * brand + path → page model. Pure apart from reading the catalog and the city table: the
 * same function serves getStaticProps, the front door's route match and the tests.
 */
import type { BlockType, Brand, Layout } from '../schemas/brand.types';
import { applyUrl, TITLE_APPLY } from './applyUrl';
import { unavailableHere } from './availability';
import { specOf, type BlockData } from './blockSpecs';
import { stateLinks } from './blockSpecs/links';
import type { BlockOf, ResolveContext } from './blockSpecs/types';
import { STORE_BRANDS } from './data/stores';
import type { Catalog, LoadedBrand } from './catalog';
import { showsForLoanType } from './loanTypeText';
import { lendingView } from './lending';
import { capitalizeFirst } from './names';
import type { BrandView, ExitPopupView, LinkView, PageModel, ResolvedBlock, ResolvedBlockOf } from './model';
import { matchRoute, type RouteMatch, type RouteParams } from './routes';
import { pageVars, ROUTE_PARAMS, stateItemVars, stateOf, type ParamKind } from './routeParams';
import { articleJsonLd, breadcrumbJsonLd, canonicalUrl, faqJsonLd, organizationJsonLd, origin, qaPageJsonLd } from './seo';
import { withMainSiteLinks } from './blogLinks';
import { isBlogPath } from './hosts';
import type { PageContent } from './content/load';
import { listInWords, NO_SERVICE_STATES, STATES } from './states';
import { templateFieldsOf } from './blockSpecs/templateFields';
import { fill, fillDeep, type Vars } from './templates';
import { DO_NOT_SELL_LABEL, privacyChoicePath } from './privacy';
import { CONTACT_OPT_OUT_LABEL, CONTACT_OPT_OUT_PATH } from './sharedRoutes';

/** The brand's 404 page model's own path (prerendered with each brand; pages/_error.tsx shows it). */
export const NOT_FOUND_PATH = '/_404';

export function matchPath(loaded: LoadedBrand, path: string): RouteMatch | undefined {
  return matchRoute(loaded.routes, path, { loanTypes: loaded.brand.loanTypes, disabledPaths: loaded.brand.disabledPaths });
}

/** The page's template variables (engine/routeParams.ts). */
/**
 * Whether the brand's routes alone say `path` is a page: it matches a route none of whose
 * parameters the content store decides. `/blog/{list}/{page?}` matches any word after /blog/,
 * but only a category with articles is a page, which the routes cannot know.
 */
export function isPageByRoutes(loaded: LoadedBrand, path: string): boolean {
  const match = matchPath(loaded, path);
  return match !== undefined && match.route.params.every((k: ParamKind) => ROUTE_PARAMS[k].sitemap !== 'content');
}

export const varsFor = (brand: Brand, params: RouteParams, year: number): Record<string, string> => pageVars(brand, params, year);

export function brandView(
  brand: Brand,
  opts: { year: number; onApplyPage: boolean; privacyChoicePath?: string | undefined; contactOptOutPath?: string | undefined },
): BrandView {
  const vars: Vars = { 'brand.name': brand.name, 'brand.host': brand.hosts[0]!, year: String(opts.year), noServiceStates: listInWords(NO_SERVICE_STATES) };
  const sl = brand.footer.stateLinks;
  return {
    id: brand.id,
    name: brand.name,
    locale: brand.locale,
    currency: brand.currency,
    layout: brand.config.layout,
    theme: brand.config.theme,
    progressColor: brand.config.progressColor,
    logo: brand.organization.logo,
    homeHref: '/',
    ...(brand.config.gtmId ? { gtmId: brand.config.gtmId } : {}),
    ...(brand.config.tiktokPixelId ? { tiktokPixelId: brand.config.tiktokPixelId } : {}),
    ...(brand.country === 'US' && opts.privacyChoicePath ? { privacyChoice: { label: DO_NOT_SELL_LABEL, href: opts.privacyChoicePath } } : {}),
    apply: {
      href: applyUrl(brand.apply),
      path: brand.apply.path,
      amountParam: brand.apply.amountParam,
      label: brand.apply.label ?? 'APPLY NOW',
      newTab: brand.apply.newTab ?? false,
    },
    ...(brand.exitPopup && !opts.onApplyPage ? { exitPopup: exitPopupView(brand.exitPopup) } : {}),
    lending: lendingView(brand, vars),
    nav: brand.nav.items.map((i) => ({ label: i.label, ...(i.href ? { href: i.href } : {}), ...(i.children ? { children: i.children } : {}) })),
    ...(brand.nav.search ? { search: { label: brand.nav.search.label ?? 'Search locations', href: brand.nav.search.href } } : {}),
    footer: {
      ...(brand.footer.about ? { about: fill(brand.footer.about, vars) } : {}),
      columns: brand.footer.columns,
      ...(sl && !(sl.hideOnApply && opts.onApplyPage) ? { stateLinks: { heading: sl.heading, links: stateLinks(sl.hrefTemplate, sl.exclude) } } : {}),
      disclaimers: brand.footer.disclaimers.map((d) => fill(d, vars)),
      copyright: `© ${opts.year} ${brand.organization.legalName ?? brand.name}. All rights reserved.`,
      ...(opts.contactOptOutPath ? { contactOptOut: { label: CONTACT_OPT_OUT_LABEL, href: opts.contactOptOutPath } } : {}),
    },
  };
}

/**
 * The brand view of a page: one object per brand (as the catalog loaded it), year and kind of
 * page, frozen, handed to every page that has it. The server renders a header and footer once
 * per view (blocks/chrome/renderedOnce.tsx), and the view is built once instead of per page.
 */
const brandViews = new WeakMap<LoadedBrand, Map<string, BrandView>>();
function sharedBrandView(loaded: LoadedBrand, year: number, onApplyPage: boolean): BrandView {
  let views = brandViews.get(loaded);
  if (!views) brandViews.set(loaded, (views = new Map()));
  const key = `${year} ${onApplyPage}`;
  let view = views.get(key);
  if (!view) {
    view = deepFreeze(
      brandView(loaded.brand, {
        year,
        onApplyPage,
        privacyChoicePath: privacyChoicePath(loaded.brand, (name) => loaded.layout(name)),
        contactOptOutPath: loaded.routes.some((r) => r.path === CONTACT_OPT_OUT_PATH) ? CONTACT_OPT_OUT_PATH : undefined,
      }),
    );
    views.set(key, view);
  }
  return view;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function exitPopupView(config: NonNullable<Brand['exitPopup']>): ExitPopupView {
  const template = config.storeHrefTemplate;
  return {
    variant: config.variant,
    maskClosable: config.maskClosable ?? true,
    ...(config.variant === 'payday' && template
      ? { stores: STORE_BRANDS.map((s) => ({ label: s.name, href: fill(template, { 'store.slug': s.slug }) })) }
      : {}),
  };
}

export { unavailableHere } from './availability';
export { loanTypeOptionLabel } from './blockSpecs/searchForm';

/** One block of the page: placeholders filled, then its spec's props and data (engine/blockSpecs). */
function resolveBlock<K extends BlockType>(block: BlockOf<K>, index: number, ctx: ResolveContext, loaded: unknown): ResolvedBlockOf<K> {
  const spec = specOf(block.type as K);
  const filled = fillDeep(block, ctx.vars, templateFieldsOf(block.type));
  // A heading that starts with a lower-case value ("title loans in Houston: …") starts with a capital.
  if ('heading' in filled && typeof filled.heading === 'string') filled.heading = capitalizeFirst(filled.heading);
  const props = spec.props ? spec.props(filled, ctx) : filled;
  // The map is typed per block type (engine/blockSpecs/index.ts), so its resolver gives BlockData[K].
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

/**
 * A search form submits ?state=…&type=… to its own page; the front door asks here where that goes.
 * Returns the target path when the page has a searchForm and the state (and loan type) are
 * real and the target resolves, otherwise undefined (the page itself is shown).
 */
export function searchRedirect(loaded: LoadedBrand, path: string, query: URLSearchParams): string | undefined {
  const stateParam = query.get('state')?.toLowerCase().trim();
  if (!stateParam) return undefined;
  const match = matchPath(loaded, path);
  const layout = match && loaded.layout(match.route.layout);
  const form = layout?.blocks.find((b) => b.type === 'searchForm');
  if (!form || form.type !== 'searchForm') return undefined;
  const state = STATES.find((s) => s.slug === stateParam || s.code === stateParam || s.name.toLowerCase() === stateParam);
  const typeParam = query.get('type')?.toLowerCase().trim();
  const loanType = loaded.brand.loanTypes.find((t) => t === typeParam) ?? (typeParam ? undefined : loaded.brand.loanTypes[0]);
  if (!state || !loanType) return undefined;
  const template = form.hrefTemplateByLoanType?.[loanType] ?? form.hrefTemplate;
  const target = fill(template, { ...stateItemVars(state), 'loanType.slug': loanType });
  return matchPath(loaded, target) ? target : undefined;
}

/** knownMatch: the route match the caller already made for this path (getStaticProps), not made again. */
export function resolvePage(
  catalog: Catalog,
  brandId: string,
  path: string,
  now = new Date(),
  content?: PageContent,
  knownMatch?: RouteMatch,
): PageModel | undefined {
  const loaded = catalog.brands.get(brandId);
  if (!loaded) return undefined;
  const { brand } = loaded;
  const year = now.getFullYear();
  const match = path === NOT_FOUND_PATH ? undefined : (knownMatch ?? matchPath(loaded, path));
  const layout = match ? loaded.layout(match.route.layout) : undefined;
  const params = match?.params ?? {};
  const vars = { ...varsFor(brand, params, year), ...content?.vars };
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
  };
  const blocks = page.blocks
    .filter((b) => showsForLoanType(b, params.loanType))
    .map((b, i) => (blocked && specOf(b.type).applyWidget ? undefined : resolveBlock(b, i, ctx, content?.blocks[i])))
    .filter((b): b is ResolvedBlock => b !== undefined);
  const onApplyPage = path === brand.apply.path || path === TITLE_APPLY.path;
  const pagePath = match ? path : NOT_FOUND_PATH;

  const jsonLd: Record<string, unknown>[] = [organizationJsonLd(brand)];
  const bodyBlock = blocks.find((b) => b.type === 'contentBody');
  const body = bodyBlock && !bodyBlock.data.error ? bodyBlock.data : undefined;
  const faqs = [...blocks.flatMap((b) => (b.type === 'faq' ? b.items : [])), ...(body?.faq ?? [])];
  if (faqs.length) jsonLd.push(faqJsonLd(faqs));
  const state = stateOf(params);
  if (match && state) {
    const heading = blocks.find((b) => b.type === 'hero')?.heading ?? page.title;
    const trail: LinkView[] = [{ label: brand.name, href: '/' }];
    const parent = path.split('/').slice(0, -1).join('/');
    if (params.city && parent && matchPath(loaded, parent)) trail.push({ label: state.name, href: parent });
    trail.push({ label: fill(heading, vars), href: path });
    jsonLd.push(breadcrumbJsonLd(brand, trail));
  }
  if (match && body && content?.entry) {
    const a = content.entry.attributes;
    if (body.collection === 'article')
      jsonLd.push(
        articleJsonLd(brand, {
          url: a.url,
          title: a.title,
          description: a.description,
          publishedAt: a.publishedAt,
          updatedAt: a.updatedAt,
          ...(body.author ? { authorName: body.author.name } : {}),
        }),
      );
    if (body.collection === 'answer') {
      const answerText = (a.extras?.body ?? '')
        .replace(/[#*_>`[\]]/g, '')
        .replace(/\((https?:[^)]*)\)/g, '')
        .trim();
      jsonLd.push(
        qaPageJsonLd(brand, { question: a.h1, answerText, url: a.url, publishedAt: a.publishedAt, ...(body.author ? { authorName: body.author.name } : {}) }),
      );
    }
    const trail: LinkView[] = [{ label: brand.name, href: '/' }];
    const section =
      body.collection === 'article'
        ? { label: 'Blog', href: '/blog' }
        : body.collection === 'answer'
          ? { label: 'Answers', href: '/answers' }
          : body.collection === 'hub'
            ? { label: 'Knowledge hub', href: '/hub' }
            : { label: 'Authors', href: '/author' };
    if (matchPath(loaded, section.href)) trail.push(section);
    if (body.category && matchPath(loaded, body.category.href)) trail.push({ label: body.category.name, href: body.category.href });
    trail.push({ label: a.h1, href: path });
    jsonLd.push(breadcrumbJsonLd(brand, trail));
  }

  const view = sharedBrandView(loaded, year, onApplyPage);
  const offBlogHost = brand.blogHost && match && isBlogPath(path) ? origin(brand) : undefined;
  return {
    brand: offBlogHost
      ? {
          ...withMainSiteLinks(view, offBlogHost),
          homeHref: `${offBlogHost}/`,
          apply: { ...withMainSiteLinks(view.apply, offBlogHost), path: offBlogHost + view.apply.path },
        }
      : view,
    status: match && layout ? 200 : 404,
    path: pagePath,
    title: `${fill(page.title, vars)} | ${brand.config.pageTitle}`,
    description: fill(page.description, vars),
    canonical: canonicalUrl(brand, match ? path : '/'),
    blocks: offBlogHost ? withMainSiteLinks(blocks, offBlogHost) : blocks,
    ...(blocked || onApplyPage || blocks.some((b) => b.type === 'applyForm') ? { noApply: true } : {}),
    jsonLd,
    ...(content?.degraded ? { revalidate: DEGRADED_REVALIDATE_SECONDS } : {}),
  };
}

/** A page with a failed content block is rebuilt soon, so the block recovers when the service does. */
export const DEGRADED_REVALIDATE_SECONDS = 30;
