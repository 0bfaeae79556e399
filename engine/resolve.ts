/**
 * brand + path → page model. Pure apart from reading the catalog and the city table: the
 * same function serves getStaticProps, the proxy's 404 decision and the tests.
 */
import type { Block, Brand, Layout } from '../schemas/brand.types';
import { amountLabel, amountOptions } from './amounts';
import { applyUrl } from './apply';
import { citiesOf, bySize } from './cities';
import type { Catalog, LoadedBrand } from './catalog';
import { LOAN_TYPES } from './loanTypes';
import { cityFacts, stateFacts } from './locationText';
import type { BrandView, LinkView, PageModel, ResolvedBlock } from './model';
import { matchRoute, type RouteMatch, type RouteParams } from './routes';
import { breadcrumbJsonLd, canonicalUrl, faqJsonLd, organizationJsonLd } from './seo';
import { listInWords, NO_SERVICE_STATES, STATE_SETS, STATES, stateByCode, type State } from './states';
import { fill, fillDeep, ITEM_TEMPLATE_KEYS, type Vars } from './templates';

/** The internal path the proxy rewrites unmatched paths to; it renders the brand's 404 page. */
export const NOT_FOUND_PATH = '/_404';

export function matchPath(loaded: LoadedBrand, path: string): RouteMatch | undefined {
  return matchRoute(loaded.routes, path, { loanTypes: loaded.brand.loanTypes, disabledPaths: loaded.brand.disabledPaths });
}

export function varsFor(brand: Brand, params: RouteParams, year: number): Record<string, string> {
  const vars: Record<string, string> = { 'brand.name': brand.name, 'brand.host': brand.hosts[0]!, year: String(year) };
  const state = params.state ?? (params.city ? stateByCode(params.city.stateCode) : undefined);
  if (state) Object.assign(vars, stateVars(state), { 'state.demonym': state.demonym });
  if (params.city) Object.assign(vars, { 'city.name': params.city.name, 'city.slug': params.city.slug, 'city.zip': params.city.zip });
  if (params.loanType) {
    const lt = LOAN_TYPES[params.loanType];
    Object.assign(vars, { 'loanType.singular': lt.singular, 'loanType.plural': lt.plural, 'loanType.slug': lt.slug });
  }
  if (params.letter) vars.letter = params.letter.toUpperCase();
  if (params.page) vars.page = String(params.page);
  if (params.list) vars.list = params.list;
  return vars;
}

const stateVars = (s: State): Record<string, string> => ({ 'state.name': s.name, 'state.code': s.code.toUpperCase(), 'state.shortName': s.code, 'state.slug': s.slug });

function statesExcluding(exclude: readonly ('noService' | 'restricted' | 'titleExcluded')[] | undefined): readonly State[] {
  if (!exclude?.length) return STATES;
  return STATES.filter((s) => !exclude.some((set) => STATE_SETS[set].has(s.name)));
}

const stateLinks = (template: string, exclude?: Parameters<typeof statesExcluding>[0]): LinkView[] =>
  statesExcluding(exclude).map((s) => ({ label: s.name, href: fill(template, stateVars(s)) }));

export function brandView(brand: Brand, opts: { year: number; onApplyPage: boolean }): BrandView {
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
    gtmId: brand.config.gtmId,
    apply: {
      href: applyUrl(brand.apply),
      path: brand.apply.path,
      amountParam: brand.apply.amountParam,
      label: brand.apply.label ?? 'APPLY NOW',
      newTab: brand.apply.newTab ?? false,
    },
    nav: brand.nav.items.map((i) => ({ label: i.label, ...(i.href ? { href: i.href } : {}), ...(i.children ? { children: i.children } : {}) })),
    footer: {
      ...(brand.footer.about ? { about: fill(brand.footer.about, vars) } : {}),
      columns: brand.footer.columns,
      ...(sl && !(sl.hideOnApply && opts.onApplyPage) ? { stateLinks: { heading: sl.heading, links: stateLinks(sl.hrefTemplate, sl.exclude) } } : {}),
      disclaimers: brand.footer.disclaimers.map((d) => fill(d, vars)),
      copyright: `© ${opts.year} ${brand.organization.legalName ?? brand.name}. All rights reserved.`,
    },
  };
}

function resolveBlock(block: Block, index: number, ctx: { brand: Brand; params: RouteParams; vars: Vars }): ResolvedBlock {
  const filled = fillDeep(block, ctx.vars, ITEM_TEMPLATE_KEYS);
  const key = `${index}-${block.type}`;
  const { brand, params } = ctx;
  const state = params.state ?? (params.city ? stateByCode(params.city.stateCode) : undefined);
  const loanLabel = params.loanType ? LOAN_TYPES[params.loanType].singular : 'loan';
  const factsOpts = { brandName: brand.name, loanLabel, locale: brand.locale };
  switch (filled.type) {
    case 'hero':
    case 'applyCta':
      return { ...filled, key, data: { applyHref: applyUrl(brand.apply) } };
    case 'stateList':
      return { ...filled, key, data: { links: stateLinks(filled.hrefTemplate, filled.exclude) } };
    case 'cityList': {
      const all = state ? citiesOf(state.code) : [];
      const top = [...all].sort(bySize).slice(0, filled.limit ?? 60).sort((a, b) => a.name.localeCompare(b.name));
      const links = top.map((c) => ({ label: c.name, href: fill(filled.hrefTemplate, { ...stateVars(state!), 'city.slug': c.slug, 'city.name': c.name }) }));
      return { ...filled, key, data: { links, total: all.length } };
    }
    case 'locationFacts': {
      const data = params.city
        ? cityFacts(params.city, state!, { ...factsOpts, ...(filled.nearbyHrefTemplate ? { nearbyHrefTemplate: filled.nearbyHrefTemplate } : {}) })
        : state
          ? stateFacts(state, factsOpts)
          : { paragraphs: [] };
      return { ...filled, key, data };
    }
    case 'quickAmount':
      return {
        ...filled,
        key,
        data: { options: amountOptions(true).map((value) => ({ value, label: amountLabel(value, brand.locale, brand.currency) })), defaultAmount: 1000 },
      };
    default:
      return { ...filled, key, data: null } as ResolvedBlock;
  }
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

export function resolvePage(catalog: Catalog, brandId: string, path: string, now = new Date()): PageModel | undefined {
  const loaded = catalog.brands.get(brandId);
  if (!loaded) return undefined;
  const { brand } = loaded;
  const year = now.getFullYear();
  const match = path === NOT_FOUND_PATH ? undefined : matchPath(loaded, path);
  const layout = match ? loaded.layout(match.route.layout) : undefined;
  const params = match?.params ?? {};
  const vars = varsFor(brand, params, year);
  const page = layout ?? notFoundLayout(brand);
  const blocks = page.blocks.map((b, i) => resolveBlock(b, i, { brand, params, vars }));
  const pagePath = match ? path : NOT_FOUND_PATH;

  const jsonLd: Record<string, unknown>[] = [organizationJsonLd(brand)];
  const faqs = blocks.flatMap((b) => (b.type === 'faq' ? b.items : []));
  if (faqs.length) jsonLd.push(faqJsonLd(faqs));
  const state = params.state ?? (params.city ? stateByCode(params.city.stateCode) : undefined);
  if (match && state) {
    const heading = blocks.find((b) => b.type === 'hero')?.heading ?? page.title;
    const trail: LinkView[] = [{ label: brand.name, href: '/' }];
    if (params.city) trail.push({ label: state.name, href: path.split('/').slice(0, -1).join('/') || '/' });
    trail.push({ label: fill(heading, vars), href: path });
    jsonLd.push(breadcrumbJsonLd(brand, trail));
  }

  return {
    brand: brandView(brand, { year, onApplyPage: path === brand.apply.path }),
    status: match && layout ? 200 : 404,
    path: pagePath,
    title: `${fill(page.title, vars)} | ${brand.config.pageTitle}`,
    description: fill(page.description, vars),
    canonical: canonicalUrl(brand, match ? path : '/'),
    blocks,
    jsonLd,
  };
}
