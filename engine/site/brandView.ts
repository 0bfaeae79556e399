/**
 * The brand as a page shows it (header, footer, apply button, lending terms, exit popup): one
 * frozen view per brand, year and kind of page, shared by every page that has it.
 */
import type { Brand } from '../../schemas/brand.types';
import { applyUrl } from '../browser/applyUrl';
import { stateLinks } from '../blockSpecs/links';
import type { LoadedBrand } from './catalog';
import { STORE_BRANDS } from '../browser/data/stores';
import { lendingView } from './lending';
import type { BrandView, ExitPopupView } from './model';
import { DO_NOT_SELL_LABEL } from '../browser/privacy';
import { privacyChoicePath } from './privacyChoicePage';
import { CONTACT_OPT_OUT_LABEL, CONTACT_OPT_OUT_PATH } from '../browser/sharedRoutes';
import { listInWords, NO_SERVICE_STATES } from '../geo/states';
import { fill, type Vars } from './templates';

function brandView(
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
export function sharedBrandView(loaded: LoadedBrand, year: number, onApplyPage: boolean): BrandView {
  let views = brandViews.get(loaded);
  if (!views) brandViews.set(loaded, (views = new Map()));
  const key = `${year} ${onApplyPage}`;
  let view = views.get(key);
  if (!view) {
    view = deepFreeze(
      brandView(loaded.brand, {
        year,
        onApplyPage,
        privacyChoicePath: privacyChoicePath(loaded.brand, (name, params) => loaded.layout(name, params)),
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
