/** The page model: plain, serialisable data handed from getStaticProps to React. */
import type { AmountParam, Block, BlockType, ExitPopupVariant, HeaderLayout } from '../../schemas/brand.types';
import type { LendingView } from './lending';

export interface LinkView {
  label: string;
  href: string;
}

export interface NavItemView {
  label: string;
  href?: string;
  children?: LinkView[];
}

export interface ApplyView {
  /** the apply URL with v1=landing-page, for links rendered on the server */
  href: string;
  path: string;
  amountParam: AmountParam;
  label: string;
  newTab: boolean;
}

export interface ExitPopupView {
  variant: ExitPopupVariant;
  maskClosable: boolean;
  /** payday variant: the 11 store brands and their pages */
  stores?: LinkView[];
}

export interface BrandView {
  id: string;
  name: string;
  locale: string;
  currency: string;
  layout: HeaderLayout;
  theme: string;
  progressColor: string;
  logo: string;
  /** the home page link: "/", or the main site's home on a separate blog host */
  homeHref: string;
  /** the tag manager container, when the brand has one */
  gtmId?: string;
  /** the short-video ad platform's pixel (general brands) */
  tiktokPixelId?: string;
  /** US brands: "Do Not Sell or Share My Personal Information", to the brand's privacy-choice page */
  privacyChoice?: LinkView;
  apply: ApplyView;
  /** absent on apply pages and for brands without one */
  exitPopup?: ExitPopupView;
  nav: NavItemView[];
  /** cost and trust next to the apply buttons (brand lending, or the product's default; engine/site/lending.ts) */
  lending: LendingView;
  /** the header search button (brand nav.search): the page with the location search */
  search?: LinkView;
  footer: {
    about?: string;
    columns: { title: string; links: LinkView[] }[];
    stateLinks?: { heading: string; links: LinkView[] };
    disclaimers: string[];
    copyright: string;
    /** "Stop calls and emails": the contact opt-out page every brand has (engine/browser/sharedRoutes.ts) */
    contactOptOut?: LinkView;
  };
}

/**
 * Each block type's server data, by type. Empty here: the generated spec map
 * (blocks/generated/specs.ts) fills it in by declaration merging from the specs' own `data`
 * types, so the page model is typed per block without the engine importing the blocks.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface BlockDataByType {}

/** Each block type's server data (null for a block without one). */
export type BlockData = { [K in BlockType]: K extends keyof BlockDataByType ? BlockDataByType[K] : null };

/** A block after placeholders are filled and its spec's resolver has run (blocks/<type>/spec.ts). */
export type ResolvedBlockOf<K extends BlockType> = Extract<Block, { type: K }> & { key: string; data: BlockData[K] };
export type ResolvedBlock = { [K in BlockType]: ResolvedBlockOf<K> }[BlockType];

export interface PageModel {
  brand: BrandView;
  status: 200 | 404;
  path: string;
  title: string;
  description: string;
  canonical: string;
  blocks: ResolvedBlock[];
  /** the page offers no apply button (a state the brand cannot serve, or an apply page): no sticky apply bar either */
  noApply?: boolean;
  jsonLd: Record<string, unknown>[];
  /** seconds until the page is rebuilt (shorter when a content block failed) */
  revalidate?: number;
  /**
   * A page that answers but has nothing of its own to show yet (a blog whose list is empty): the
   * visitor sees it say so, search engines are asked not to index it (<meta name="robots"
   * content="noindex">, no canonical) until its list has something.
   */
  noindex?: true;
}
