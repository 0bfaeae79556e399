/** The page model: plain, serialisable data handed from getStaticProps to React. */
import type { Block, BlockType } from '../schemas/brand.types';
import type { ContentBodyData, ContentListData } from './content/load';
import type { GeocoderEndpoint } from './geocode/client';
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
  amountParam: 'requested_amount' | 'requestedamount';
  label: string;
  newTab: boolean;
}

export interface ExitPopupView {
  variant: 'generic' | 'general' | 'title' | 'payday';
  maskClosable: boolean;
  /** payday variant: the 11 store brands and their pages */
  stores?: LinkView[];
}

export interface BrandView {
  id: string;
  name: string;
  locale: string;
  currency: string;
  layout: 'full' | 'logo-only';
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
  /** cost and trust next to the apply buttons (brand lending, or the product's default; engine/lending.ts) */
  lending: LendingView;
  /** the header search button (brand nav.search): the page with the location search */
  search?: LinkView;
  footer: {
    about?: string;
    columns: { title: string; links: LinkView[] }[];
    stateLinks?: { heading: string; links: LinkView[] };
    disclaimers: string[];
    copyright: string;
  };
}

export interface LocationFactsData {
  paragraphs: string[];
  nearby?: { label: string; href?: string; miles: number }[];
}

/** The application form's server-resolved data (blocks/applyForm). */
export interface ApplyFormData {
  /** the query key the amount arrives under (requested_amount or requestedamount) */
  amountParam: 'requested_amount' | 'requestedamount';
  /** shown until the query or session storage says otherwise */
  defaultAmount: number;
  /** the consent shown next to the submit button: its version and exact text for this brand */
  consent: { version: string; text: string };
  /** states this brand cannot take a request from (lower-case code), with the reason shown to the visitor */
  unavailableStates: { code: string; name: string; reason: string }[];
  /** the guide offered on the thank-you step */
  guide: LinkView;
  /** shown next to the amount: the block's own, else the brand's lending.representativeExample (engine/lending.ts) */
  representativeExample: string;
  /** with trace capture on: the server's public key (SPKI PEM) the form trace is sealed for */
  traceKey?: string;
}

export interface BlockData {
  /** unavailable: the state (or the title brand's excluded state) the page is about, where the brand takes no request; no apply button is shown */
  hero: { applyHref: string; unavailable?: { reason: string; alternativesHref: string } };
  applyCta: { applyHref: string; unavailable?: { stateName: string; alternatives: LinkView[] } };
  stateList: { links: LinkView[] };
  cityList: { links: LinkView[]; total: number };
  locationFacts: LocationFactsData;
  quickAmount: { options: { value: number; label: string }[]; defaultAmount: number };
  applyForm: ApplyFormData;
  cityIndex: {
    groups: { letter: string; links: LinkView[] }[];
    total: number;
    letters?: (LinkView & { current: boolean })[];
    pages?: { current: number; count: number; links: (LinkView & { current: boolean })[] };
  };
  storeDirectory: { stores: (LinkView & { loanType: string })[]; groups?: (LinkView & { current: boolean })[] };
  storeFacts: { paragraphs: string[]; nearMe?: LinkView };
  searchForm: { action: string; states: { value: string; label: string }[]; loanTypes: { value: string; label: string }[] };
  contentList: Omit<ContentListData, 'pages'> & { pages?: { current: number; count: number; links: (LinkView & { current: boolean })[] } };
  contentBody: (ContentBodyData & { error?: undefined }) | { error: true };
  /** loanType: the page's (or the brand's first), for the page a chosen place opens */
  locationSearch: { loanType: string; geocoder: GeocoderEndpoint };
  addressAutocomplete: { geocoder: GeocoderEndpoint };
}

type DataOf<K extends BlockType> = K extends keyof BlockData ? BlockData[K] : null;

/** A block after placeholders are filled and its loader has run. */
export type ResolvedBlock = { [K in BlockType]: Extract<Block, { type: K }> & { key: string; data: DataOf<K> } }[BlockType];
export type ResolvedBlockOf<K extends BlockType> = Extract<ResolvedBlock, { type: K }>;

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
