/** The page model: plain, serialisable data handed from getStaticProps to React. */
import type { AmountParam, Block, BlockType, ExitPopupVariant, HeaderLayout } from '../../schemas/brand.types';
import type { BlockData } from '../blockSpecs';
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

export type { LocationFactsData } from '../blockSpecs/locationFacts';
export type { ApplyFormData } from '../blockSpecs/applyForm';
export type { BlockData } from '../blockSpecs';

/** A block after placeholders are filled and its spec's resolver has run (engine/blockSpecs). */
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
}
