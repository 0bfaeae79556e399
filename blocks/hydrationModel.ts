/**
 * What the browser needs to hydrate a first load, and nothing more (the page data was
 * ~16–20 KB of every page). pages/_document.tsx puts this in the HTML's __NEXT_DATA__ in place of
 * the full page model; the data of a client-side navigation (/_next/data/…json) stays complete.
 * - Static blocks and the site chrome keep the server's HTML (blocks/chrome/Kept.tsx): no data at all,
 *   only their type and key.
 * - The brand: the fields the live parts read (layout behaviour, third parties, sticky apply,
 *   exit popup, interactive blocks) — not the nav, footer lists, lending texts, search link.
 * - No head: title, description, canonical and JSON-LD are written by the document (crawlers load
 *   pages, they do not navigate); after a navigation blocks/chrome/pageHead.ts writes the next ones.
 */
import type { BlockType } from '../schemas/brand.types';
import type { BrandView, ExitPopupView, PageModel, ResolvedBlock } from '../engine/site/model';
import { STORE_BRANDS } from '../engine/browser/data/stores';
import { STORE_SLUG as SLUG, storeLinks } from './parts/storeLinks';
import { keptOnFirstLoad } from './lazyBlock';
import { registry } from './generated/registry';

/** A static block on the first load: its HTML is in the page, its data is not. */
export interface KeptBlock {
  type: BlockType;
  key: string;
  kept: true;
}

/** The brand fields only the server's HTML needs. */
type ChromeOnly = 'nav' | 'footer' | 'lending' | 'search' | 'privacyChoice' | 'name' | 'logo' | 'layout';

/**
 * The exit popup as a first load sends it: the payday variant's 11 store links (~1 KB) as the one
 * pattern they follow (`storeHref`, with {store.slug}); the popup's own chunk rebuilds them.
 */
export type LiveExitPopup = ExitPopupView & { storeHref?: string };
export type LiveBrand = Omit<BrandView, ChromeOnly | 'exitPopup'> & Partial<Pick<BrandView, ChromeOnly>> & { exitPopup?: LiveExitPopup };

/** The pattern of the popup's store links when they are exactly the store brands on one pattern; else the links stay. */
const compacted = new WeakMap<ExitPopupView, LiveExitPopup>();
function compactPopup(popup: ExitPopupView): LiveExitPopup {
  // a brand's pages share one view (engine/site/brandView.ts), so its popup is compacted once
  let live = compacted.get(popup);
  if (!live) compacted.set(popup, (live = compactPopupOnce(popup)));
  return live;
}

function compactPopupOnce(popup: ExitPopupView): LiveExitPopup {
  const first = popup.stores?.[0];
  if (!first) return popup;
  const storeHref = first.href.replace(STORE_BRANDS[0]!.slug, SLUG);
  if (!storeHref.includes(SLUG) || JSON.stringify(storeLinks(storeHref)) !== JSON.stringify(popup.stores)) return popup;
  const { stores: _stores, ...rest } = popup;
  return { ...rest, storeHref };
}

/** Head tags are the document's (first load) or pageHead.ts's (navigations, from the full model). */
type HeadOnly = 'title' | 'description' | 'canonical' | 'noindex';

export interface HydrationModel extends Omit<PageModel, 'brand' | 'blocks' | 'jsonLd' | HeadOnly> {
  /** the first load's data: static parts are kept from the server's HTML */
  kept: true;
  brand: LiveBrand;
  blocks: (ResolvedBlock | KeptBlock)[];
  jsonLd: [];
}

export type ClientModel = PageModel | HydrationModel;

/** Marked kept (one test for both: every page's script carries it). */
const markedKept = (x: object): boolean => 'kept' in x && x.kept === true;
export const isKeptBlock = markedKept as (block: ResolvedBlock | KeptBlock) => block is KeptBlock;
export const isHydrationModel = markedKept as (model: ClientModel) => model is HydrationModel;

export function hydrationModel(model: PageModel): HydrationModel {
  const {
    nav: _nav,
    footer: _footer,
    lending: _lending,
    search: _search,
    privacyChoice: _privacy,
    name: _name,
    logo: _logo,
    layout: _layout,
    exitPopup,
    ...live
  } = model.brand;
  const brand: LiveBrand = exitPopup ? { ...live, exitPopup: compactPopup(exitPopup) } : live;
  const blocks = model.blocks.map((b): ResolvedBlock | KeptBlock => (keptOnFirstLoad(registry[b.type]) ? { type: b.type, key: b.key, kept: true } : b));
  const { jsonLd: _jsonLd, title: _title, description: _description, canonical: _canonical, noindex: _noindex, ...rest } = model;
  return { ...rest, kept: true, brand, blocks, jsonLd: [] };
}
