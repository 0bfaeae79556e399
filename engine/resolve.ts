/**
 * brand + path → page model. Pure apart from reading the catalog and the city table: the
 * same function serves getStaticProps, the proxy's 404 decision and the tests.
 */
import type { Block, Brand, Layout } from '../schemas/brand.types';
import { amountLabel, amountOptions } from './amounts';
import { applyUrl, TITLE_APPLY } from './apply';
import { citiesByName, citiesOf, largestCitiesByName, type City } from './cities';
import { cityPage, cityPageCount, letterGroupLabel, LETTER_GROUPS, letterGroupOf, storeNearMePath, storesInGroup } from './directory';
import { STORE_BRANDS } from './data/stores';
import { formatMoney } from './amounts';
import type { Catalog, LoadedBrand } from './catalog';
import { geocoderEndpoint } from './geocode/endpoint';
import { LOAN_TYPES } from './loanTypes';
import { cityFacts, NO_SERVICE_ALTERNATIVES, stateFacts } from './locationText';
import { lendingView } from './lending';
import { capitalizeFirst } from './names';
import type { ApplyFormData, BrandView, ExitPopupView, LinkView, PageModel, ResolvedBlock } from './model';
import { consentText, CURRENT_CONSENT_VERSION } from './consent';
import { FORM_AMOUNT } from './leads/formRules';
import { stateUnavailableReason, unavailableStateCodes } from './leads/rules';
import { matchRoute, type RouteMatch, type RouteParams } from './routes';
import { articleJsonLd, breadcrumbJsonLd, canonicalUrl, faqJsonLd, organizationJsonLd, origin, qaPageJsonLd } from './seo';
import { withMainSiteLinks } from './blogLinks';
import { isBlogPath } from './hosts';
import type { PageContent } from './content/load';
import { listInWords, NO_SERVICE_STATES, STATE_SETS, STATES, stateByCode, type State } from './states';
import { fill, fillDeep, ITEM_TEMPLATE_KEYS, type Vars } from './templates';
import { DO_NOT_SELL_LABEL, privacyChoicePath } from './privacy';

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
  if (params.letter) Object.assign(vars, { letter: params.letter.toUpperCase(), 'letter.slug': params.letter });
  if (params.page) vars.page = String(params.page);
  if (params.list) vars.list = params.list;
  if (params.letterGroup) Object.assign(vars, { letterGroup: letterGroupLabel(params.letterGroup), 'letterGroup.slug': params.letterGroup });
  if (params.amount) Object.assign(vars, { amount: formatMoney(params.amount, brand.locale, brand.currency), 'amount.value': String(params.amount) });
  if (params.store) {
    const s = params.store;
    Object.assign(vars, { 'store.name': s.name, 'store.slug': s.slug, 'store.loanType': s.loanType === 'loans' ? 'personal loans' : s.loanType, 'store.nearMePath': storeNearMePath(s) });
  }
  return vars;
}

const cityVars = (c: City): Record<string, string> => ({ ...stateVars(stateByCode(c.stateCode)!), 'city.slug': c.slug, 'city.name': c.name });

/** Page links 1…n around the current one; page 1 is the path without a number (SPEC: no page 1 in paths). */
function pageLinks(basePath: string, current: number, count: number): (LinkView & { current: boolean })[] {
  const wanted = new Set([1, count, current - 2, current - 1, current, current + 1, current + 2].filter((n) => n >= 1 && n <= count));
  return [...wanted].sort((a, b) => a - b).map((n) => ({ label: String(n), href: n === 1 ? basePath : `${basePath}/${n}`, current: n === current }));
}

const stateVars = (s: State): Record<string, string> => ({ 'state.name': s.name, 'state.code': s.code.toUpperCase(), 'state.shortName': s.code, 'state.slug': s.slug });

function statesExcluding(exclude: readonly ('noService' | 'restricted' | 'titleExcluded')[] | undefined): readonly State[] {
  if (!exclude?.length) return STATES;
  return STATES.filter((s) => !exclude.some((set) => STATE_SETS[set].has(s.name)));
}

const stateLinks = (template: string, exclude?: Parameters<typeof statesExcluding>[0]): LinkView[] =>
  statesExcluding(exclude).map((s) => ({ label: s.name, href: fill(template, stateVars(s)) }));

export function brandView(brand: Brand, opts: { year: number; onApplyPage: boolean; privacyChoicePath?: string | undefined }): BrandView {
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
    },
  };
}

function exitPopupView(config: NonNullable<Brand['exitPopup']>): ExitPopupView {
  const template = config.storeHrefTemplate;
  return {
    variant: config.variant,
    maskClosable: config.maskClosable ?? true,
    ...(config.variant === 'payday' && template ? { stores: STORE_BRANDS.map((s) => ({ label: s.name, href: fill(template, { 'store.slug': s.slug }) })) } : {}),
  };
}

interface BlockContext {
  loaded: LoadedBrand;
  brand: Brand;
  params: RouteParams;
  vars: Vars;
  path: string;
  content?: PageContent;
}

/**
 * The state this page is about when the brand takes no request from it (SPEC §1's no-service
 * states; on title pages also SPEC §9's exclusions), with the reason the apply form also gives.
 */
export function unavailableHere(brand: Brand, params: RouteParams): { state: State; reason: string } | undefined {
  const state = params.state ?? (params.city ? stateByCode(params.city.stateCode) : undefined);
  if (!state) return undefined;
  const title = brand.product === 'title' || params.loanType === 'title-loans' || params.loanType === 'title-loans-near-me';
  const reason = stateUnavailableReason(state, title ? 'title' : 'general', brand.name);
  return reason ? { state, reason } : undefined;
}

/** A loan type as a choice in a list: "Title loans", "Title loans near me" (two types never read the same). */
export const loanTypeOptionLabel = (t: keyof typeof LOAN_TYPES): string => capitalizeFirst(LOAN_TYPES[t].nearMe ? `${LOAN_TYPES[t].plural} near me` : LOAN_TYPES[t].plural);

/** Blocks whose only purpose is to send the visitor to the apply page (left out where the brand cannot serve the state). */
const APPLY_WIDGETS: ReadonlySet<Block['type']> = new Set(['quickAmount', 'getYourCash', 'rangeSlider']);

function resolveBlock(block: Block, index: number, ctx: BlockContext): ResolvedBlock {
  const filled = fillDeep(block, ctx.vars, ITEM_TEMPLATE_KEYS);
  // A heading that starts with a lower-case value ("title loans in Houston: …") starts with a capital.
  if ('heading' in filled && typeof filled.heading === 'string') filled.heading = capitalizeFirst(filled.heading);
  const key = `${index}-${block.type}`;
  /** A link template: each item's own variables first, then the page's (e.g. {loanType.slug}). */
  const itemFill = (template: string, itemVars: Vars) => fill(fill(template, itemVars), ctx.vars);
  const { brand, params } = ctx;
  const state = params.state ?? (params.city ? stateByCode(params.city.stateCode) : undefined);
  const loanLabel = params.loanType ? LOAN_TYPES[params.loanType].singular : 'loan';
  const factsOpts = { brandName: brand.name, loanLabel, locale: brand.locale, titleOnly: params.loanType === 'title-loans' || params.loanType === 'title-loans-near-me' };
  switch (filled.type) {
    case 'hero': {
      // Where the brand cannot serve the state: say so first, no apply button, point to the alternatives.
      const blocked = unavailableHere(brand, params);
      if (!blocked) return { ...filled, key, data: { applyHref: applyUrl(brand.apply) } };
      const { ctaLabel: _cta, text: _text, ...rest } = filled;
      return { ...rest, key, data: { applyHref: applyUrl(brand.apply), unavailable: { reason: blocked.reason, alternativesHref: '#alternatives' } } };
    }
    case 'applyCta': {
      const blocked = unavailableHere(brand, params);
      return {
        ...filled,
        ...(blocked ? { heading: `Alternatives in ${blocked.state.name}`, text: `Because we cannot take a request from ${blocked.state.name}, here are other places that may help.` } : {}),
        key,
        data: { applyHref: applyUrl(brand.apply), ...(blocked ? { unavailable: { stateName: blocked.state.name, alternatives: [...NO_SERVICE_ALTERNATIVES] } } : {}) },
      };
    }
    case 'stateList':
      return { ...filled, key, data: { links: stateLinks(filled.hrefTemplate, filled.exclude).map((l) => ({ ...l, href: fill(l.href, ctx.vars) })) } };
    case 'cityList': {
      const all = state ? citiesOf(state.code) : [];
      const top = state ? largestCitiesByName(state.code, filled.limit ?? 60) : [];
      const links = top.map((c) => ({ label: c.name, href: itemFill(filled.hrefTemplate, { ...stateVars(state!), 'city.slug': c.slug, 'city.name': c.name }) }));
      return { ...filled, key, data: { links, total: all.length } };
    }
    case 'locationFacts': {
      const data = params.city
        ? cityFacts(params.city, state!, { ...factsOpts, pageVars: ctx.vars, ...(filled.nearbyHrefTemplate ? { nearbyHrefTemplate: filled.nearbyHrefTemplate } : {}) })
        : state
          ? stateFacts(state, factsOpts)
          : { paragraphs: [] };
      return { ...filled, key, data };
    }
    case 'cityIndex': {
      if (filled.scope === 'letter') {
        const letter = params.letter ?? 'a';
        const page = params.page ?? 1;
        const count = cityPageCount(letter);
        const basePath = params.page ? ctx.path.slice(0, ctx.path.lastIndexOf('/')) : ctx.path;
        const links = cityPage(letter, page).map((c) => ({ label: `${c.name}, ${c.stateCode.toUpperCase()}`, href: itemFill(filled.hrefTemplate, cityVars(c)) }));
        return {
          ...filled,
          key,
          data: {
            groups: [{ letter: letter.toUpperCase(), links }],
            total: count,
            ...(filled.letterHrefTemplate ? { letters: 'abcdefghijklmnopqrstuvwxyz'.split('').map((l) => ({ label: l.toUpperCase(), href: itemFill(filled.letterHrefTemplate!, { 'letter.slug': l }), current: l === letter })) } : {}),
            ...(count > 1 ? { pages: { current: page, count, links: pageLinks(basePath, page, count) } } : {}),
          },
        };
      }
      const cities = state ? citiesByName(state.code) : [];
      const groups = new Map<string, LinkView[]>();
      for (const c of cities) {
        const letter = c.name.charAt(0).toUpperCase();
        groups.set(letter, [...(groups.get(letter) ?? []), { label: c.name, href: itemFill(filled.hrefTemplate, cityVars(c)) }]);
      }
      return {
        ...filled,
        key,
        data: {
          groups: [...groups].map(([letter, links]) => ({ letter, links })),
          total: cities.length,
          ...(filled.letterHrefTemplate ? { letters: 'abcdefghijklmnopqrstuvwxyz'.split('').map((l) => ({ label: l.toUpperCase(), href: itemFill(filled.letterHrefTemplate!, { 'letter.slug': l }), current: false })) } : {}),
        },
      };
    }
    case 'storeDirectory': {
      const stores = params.letterGroup ? storesInGroup(params.letterGroup) : [...STORE_BRANDS];
      return {
        ...filled,
        key,
        data: {
          stores: stores.map((s) => ({ label: s.name, href: itemFill(filled.hrefTemplate, { 'store.slug': s.slug }), loanType: s.loanType === 'loans' ? 'personal loans' : s.loanType })),
          ...(filled.groupHrefTemplate
            ? { groups: LETTER_GROUPS.map((g) => ({ label: letterGroupLabel(g), href: itemFill(filled.groupHrefTemplate!, { 'letterGroup.slug': g }), current: g === params.letterGroup })) }
            : {}),
        },
      };
    }
    case 'storeFacts': {
      const store = params.store!;
      const label = store.loanType === 'loans' ? 'personal loans' : store.loanType;
      const nearMePath = storeNearMePath(store);
      const nearMe = matchPath(ctx.loaded, nearMePath) ? { label: `Compare ${label} near you`, href: nearMePath } : undefined;
      return {
        ...filled,
        key,
        data: {
          paragraphs: [
            `${store.name} is a loan store brand that borrowers mostly know for ${label}. It is listed in our directory under "${letterGroupLabel(letterGroupOf(store.name))}". ${brand.name} is not affiliated with ${store.name} and cannot tell you whether a particular store is open or what it offers today.`,
            `Store loans and online loans are priced differently, and rules depend on your state. Before you visit any store, ask for the APR and the total cost in dollars in writing, check that the lender is licensed in your state, and compare at least one other offer.`,
          ],
          ...(nearMe ? { nearMe } : {}),
        },
      };
    }
    case 'searchForm':
      return {
        ...filled,
        key,
        data: {
          action: ctx.path,
          states: STATES.map((s) => ({ value: s.slug, label: s.name })),
          loanTypes: brand.loanTypes.map((t) => ({ value: t, label: loanTypeOptionLabel(t) })),
        },
      };
    case 'contentList': {
      const list = ctx.content?.lists[index];
      if (!list) return { ...filled, key, data: { items: [], error: true } };
      const basePath = params.page ? ctx.path.slice(0, ctx.path.lastIndexOf('/')) : ctx.path;
      const { pages, ...rest } = list;
      return { ...filled, key, data: { ...rest, ...(pages ? { pages: { ...pages, links: pageLinks(basePath, pages.current, pages.count) } } : {}) } };
    }
    case 'contentBody':
      return { ...filled, key, data: ctx.content?.body ?? { error: true } };
    case 'quickAmount':
      return {
        ...filled,
        key,
        data: { options: amountOptions(true).map((value) => ({ value, label: amountLabel(value, brand.locale, brand.currency) })), defaultAmount: 1000 },
      };
    case 'locationSearch':
      return { ...filled, key, data: { loanType: params.loanType ?? brand.loanTypes[0]!, geocoder: geocoderEndpoint(brand.config.mapKey) } };
    case 'addressAutocomplete':
      return { ...filled, key, data: { geocoder: geocoderEndpoint(brand.config.mapKey) } };
    case 'applyForm':
      return { ...filled, key, data: applyFormData(filled, ctx) };
    default:
      return { ...filled, key, data: null } as ResolvedBlock;
  }
}

/** The application form's data: consent text for the brand, the states it cannot serve, and the thank-you step's guide. */
function applyFormData(block: Extract<Block, { type: 'applyForm' }>, ctx: BlockContext): ApplyFormData {
  const { brand } = ctx;
  const kind = block.loanKind;
  const unavailable = new Set(unavailableStateCodes(kind));
  const guide =
    block.guideLinks?.find((l) => matchPath(ctx.loaded, l.href)) ??
    brand.nav.items.flatMap((i) => (i.href ? [{ label: i.label, href: i.href }] : (i.children ?? []))).find((l) => l.href.startsWith('/') && l.href !== brand.apply.path) ?? { label: `${brand.name} home`, href: '/' };
  return {
    amountParam: brand.apply.amountParam,
    defaultAmount: FORM_AMOUNT.default,
    consent: { version: CURRENT_CONSENT_VERSION, text: consentText(CURRENT_CONSENT_VERSION, brand.name) },
    unavailableStates: STATES.filter((s) => unavailable.has(s.code)).map((s) => ({ code: s.code, name: s.name, reason: stateUnavailableReason(s, kind, brand.name)! })),
    guide: { label: guide.label, href: guide.href },
    representativeExample: block.representativeExample ?? lendingView(brand, ctx.vars).representativeExample,
  };
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
 * A search form submits ?state=…&type=… to its own page; the proxy asks here where that goes.
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
  const target = fill(template, { ...stateVars(state), 'loanType.slug': loanType });
  return matchPath(loaded, target) ? target : undefined;
}

/** knownMatch: the route match the caller already made for this path (getStaticProps), not made again. */
export function resolvePage(catalog: Catalog, brandId: string, path: string, now = new Date(), content?: PageContent, knownMatch?: RouteMatch): PageModel | undefined {
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
  const blocks = page.blocks
    .map((b, i) => (blocked && APPLY_WIDGETS.has(b.type) ? undefined : resolveBlock(b, i, { loaded, brand, params, vars, path, ...(content ? { content } : {}) })))
    .filter((b): b is ResolvedBlock => b !== undefined);
  const onApplyPage = path === brand.apply.path || path === TITLE_APPLY.path;
  const pagePath = match ? path : NOT_FOUND_PATH;

  const jsonLd: Record<string, unknown>[] = [organizationJsonLd(brand)];
  const body = content?.body;
  const faqs = [...blocks.flatMap((b) => (b.type === 'faq' ? b.items : [])), ...(body?.faq ?? [])];
  if (faqs.length) jsonLd.push(faqJsonLd(faqs));
  const state = params.state ?? (params.city ? stateByCode(params.city.stateCode) : undefined);
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
    if (body.collection === 'article') jsonLd.push(articleJsonLd(brand, { url: a.url, title: a.title, description: a.description, publishedAt: a.publishedAt, updatedAt: a.updatedAt, ...(body.author ? { authorName: body.author.name } : {}) }));
    if (body.collection === 'answer') {
      const answerText = (a.extras?.body ?? '').replace(/[#*_>`[\]]/g, '').replace(/\((https?:[^)]*)\)/g, '').trim();
      jsonLd.push(qaPageJsonLd(brand, { question: a.h1, answerText, url: a.url, publishedAt: a.publishedAt, ...(body.author ? { authorName: body.author.name } : {}) }));
    }
    const trail: LinkView[] = [{ label: brand.name, href: '/' }];
    const section = body.collection === 'article' ? { label: 'Blog', href: '/blog' } : body.collection === 'answer' ? { label: 'Answers', href: '/answers' } : body.collection === 'hub' ? { label: 'Knowledge hub', href: '/hub' } : { label: 'Authors', href: '/author' };
    if (matchPath(loaded, section.href)) trail.push(section);
    if (body.category && matchPath(loaded, body.category.href)) trail.push({ label: body.category.name, href: body.category.href });
    trail.push({ label: a.h1, href: path });
    jsonLd.push(breadcrumbJsonLd(brand, trail));
  }

  const view = brandView(brand, { year, onApplyPage, privacyChoicePath: privacyChoicePath(brand, (name) => loaded.layout(name)) });
  const offBlogHost = brand.blogHost && match && isBlogPath(path) ? origin(brand) : undefined;
  return {
    brand: offBlogHost ? { ...withMainSiteLinks(view, offBlogHost), homeHref: `${offBlogHost}/`, apply: { ...withMainSiteLinks(view.apply, offBlogHost), path: offBlogHost + view.apply.path } } : view,
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
