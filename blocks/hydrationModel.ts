/**
 * What the browser needs to hydrate a first load, and nothing more (issue 13: the page data was
 * ~16–20 KB of every page). pages/_document.tsx puts this in the HTML's __NEXT_DATA__ in place of
 * the full page model; the data of a client-side navigation (/_next/data/…json) stays complete.
 * - Static blocks and the site chrome keep the server's HTML (layout/Kept.tsx): no data at all,
 *   only their type and key.
 * - The brand: the fields the live parts read (layout behaviour, third parties, sticky apply,
 *   exit popup, interactive blocks) — not the nav, footer lists, lending texts, search link.
 * - No head: title, description, canonical and JSON-LD are written by the document (crawlers load
 *   pages, they do not navigate); after a navigation blocks/layout/pageHead.ts writes the next ones.
 */
import type { BlockType } from '../schemas/brand.types';
import type { BrandView, PageModel, ResolvedBlock } from '../engine/model';
import { keptOnFirstLoad } from './lazyBlock';
import { registry } from './registry';

/** A static block on the first load: its HTML is in the page, its data is not. */
export interface KeptBlock {
  type: BlockType;
  key: string;
  kept: true;
}

/** The brand fields only the server's HTML needs. */
type ChromeOnly = 'nav' | 'footer' | 'lending' | 'search' | 'privacyChoice' | 'name' | 'logo' | 'layout';
export type LiveBrand = Omit<BrandView, ChromeOnly> & Partial<Pick<BrandView, ChromeOnly>>;

/** Head tags are the document's (first load) or pageHead.ts's (navigations, from the full model). */
type HeadOnly = 'title' | 'description' | 'canonical';

export interface HydrationModel extends Omit<PageModel, 'brand' | 'blocks' | 'jsonLd' | HeadOnly> {
  /** the first load's data: static parts are kept from the server's HTML */
  kept: true;
  brand: LiveBrand;
  blocks: (ResolvedBlock | KeptBlock)[];
  jsonLd: [];
}

export type ClientModel = PageModel | HydrationModel;

export const isKeptBlock = (block: ResolvedBlock | KeptBlock): block is KeptBlock => 'kept' in block && block.kept === true;
export const isHydrationModel = (model: ClientModel): model is HydrationModel => 'kept' in model && model.kept === true;

export function hydrationModel(model: PageModel): HydrationModel {
  const { nav: _nav, footer: _footer, lending: _lending, search: _search, privacyChoice: _privacy, name: _name, logo: _logo, layout: _layout, ...brand } = model.brand;
  const blocks = model.blocks.map((b): ResolvedBlock | KeptBlock => (keptOnFirstLoad(registry[b.type]) ? { type: b.type, key: b.key, kept: true } : b));
  const { jsonLd: _jsonLd, title: _title, description: _description, canonical: _canonical, ...rest } = model;
  return { ...rest, kept: true, brand, blocks, jsonLd: [] };
}
