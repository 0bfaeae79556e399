/**
 * What a block type declares about itself to the engine (Puck's component config, kept pure):
 * the server data its component needs, the checks JSON Schema cannot express, whether it
 * needs the content service and what it adds to sitemaps. Its link-template fields are marked
 * in its schema ("x-template") and checked from there (TEMPLATE_FIELDS).
 *
 * Each block's spec is blocks/<type>/spec.ts; `npm run gen` collects them into one map
 * (blocks/generated/specs.ts). The engine never imports it: the map is handed to buildCatalog and
 * travels with the catalog (Catalog.specs, LoadedBrand.specs) to every check and page model.
 */
import type { Block, BlockType, Brand, LoanType } from '../../schemas/brand.types';
import type { Collection, ContentBodyData, Entry, ContentSource, ListFilters, PublicationState } from '../content/types';
import type { CompiledRoute, RouteMatch, RouteParams } from './routes';
import type { ShownChecks } from './contentLists';
import type { ParamKind } from './routeParams';
import type { State } from '../geo/states';
import type { Vars } from './templates';

export type BlockOf<K extends BlockType> = Extract<Block, { type: K }>;

/** What a block's resolver may read: the page, its parameters and the content loaded for it. */
export interface ResolveContext {
  brand: Brand;
  params: RouteParams;
  /** the page's template variables */
  vars: Vars;
  /** the state the page is about (its own or its city's) */
  state: State | undefined;
  path: string;
  /** does this path of the brand give a page, by its routes alone (a path whose page the content store decides is not counted) */
  isPage: (path: string) => boolean;
  /**
   * The page's opening: 'hero' on a hero followed straight away by an amount widget or the
   * application form, 'input' on that widget or form (engine/site/leadIn.ts). Such a hero only
   * introduces the input, so that the input is on a phone's first screen.
   */
  leadIn?: 'hero' | 'input';
  /** a link template: each item's own variables first, then the page's (e.g. {loanType.slug}) */
  itemFill: (template: string, itemVars: Vars) => string;
  /** the server's public key a form trace is sealed for; undefined where the deployment has none (given by engine/site/pageModel.ts) */
  traceKey?: () => string | undefined;
}

/** Where a block's checks report, and what they can ask about the routes that use its layout. */
export interface CheckContext {
  brand: Brand;
  /** pointer of the block */
  at: string;
  /** the routes whose pages use the layout */
  routes: readonly CompiledRoute[];
  add: (pointer: string, message: string) => void;
  /** reports when a route using the layout lacks what the block needs */
  needs: (what: string, ok: (route: CompiledRoute) => boolean) => void;
  hasParam: (route: CompiledRoute, ...kinds: ParamKind[]) => boolean;
  checkLink: (pointer: string, href: string) => void;
}

/** What a block's content loader gets (content/load.ts). */
export interface LoadContext {
  source: ContentSource;
  brand: Brand;
  match: RouteMatch;
  publicationState: PublicationState;
  /** the item the path's {slug} names, when it has one */
  entry?: Entry;
  /** the category the path's {list} names, when it has one */
  category?: Entry;
  /** filters that keep a list to what this brand shows */
  shownHere: (collection: string) => ListFilters;
  one: (collection: Parameters<ContentSource['list']>[0], slug: string, filters?: ListFilters) => Promise<Entry | undefined>;
  /** what decides whether an entry has a page on this brand (engine/site/contentLists.ts shownEntries), each answer asked once per page */
  shownChecks: ShownChecks;
  /** the block's place in its layout */
  index: number;
  /** a secondary block failed: the page is rebuilt soon */
  degrade: () => void;
  /** the page's own list (ContentNeeds.ownList) shows nothing yet: the page is kept out of search results while it does not */
  nothingListed: () => void;
}

export interface ContentNeeds<K extends BlockType, L> {
  /** the block's content; 'notFound' makes the page a 404; a throw fails the page */
  load: (block: BlockOf<K>, ctx: LoadContext) => Promise<L | 'notFound' | undefined>;
  /**
   * The page's own list on this route, when the block is one: what the page is for. While it shows
   * nothing the page says so and is noindex, and the sitemap leaves it out; a paginated one's
   * further pages (…/2, …/3) are in the sitemap as far as what it shows reaches.
   */
  ownList?: (block: BlockOf<K>, route: CompiledRoute) => { collection: Collection; pageSize: number; paginated: boolean } | undefined;
}

export interface BlockSpec<K extends BlockType, D = null, L = undefined> {
  /** the server data the component gets as block.data */
  data?: (block: BlockOf<K>, ctx: ResolveContext, loaded: L | undefined) => D;
  /** the block's props as shown on this page, where the page changes them */
  props?: (block: BlockOf<K>, ctx: ResolveContext) => BlockOf<K>;
  /** checks of the block against the routes that use its layout */
  check?: (block: BlockOf<K>, ctx: CheckContext) => void;
  /** the block only sends the visitor to the apply page: left out where the brand cannot serve the state */
  applyWidget?: true;
  /** the block needs the content service */
  content?: ContentNeeds<K, L>;
  /** the block is the application form itself: a hero may lead into it, and the page shows no other apply button */
  isApplication?: true;
  /** the page is for something other than a loan request (the opt-out): no sticky apply button on phones */
  noApply?: true;
  /** the block's browser code calls the geocoder, whose origin the page's CSP must then allow */
  usesGeocoder?: true;
  /** the block is the place search the header's search link (nav.search) opens */
  isPlaceSearch?: true;
  /** the block holds the page's one <h1> (it must come first, once per page): its heading names the page in breadcrumbs */
  pageHeading?: (block: BlockOf<K>) => string;
  /** the page a search block's submitted state and loan type go to (a template filled with the state's and loan type's variables) */
  searchTarget?: (block: BlockOf<K>, loanType: LoanType) => string;
  /** the block may ask the browser for the visitor's position (the page then sends Permissions-Policy geolocation=(self)) */
  asksGeolocation?: (block: BlockOf<K>) => boolean;
  /** third-party origins the block's browser code loads scripts from or connects to, for the page's CSP */
  thirdPartyOrigins?: (block: BlockOf<K>) => { scripts: string[]; connect: string[] };
  /** the block is the brand's privacy-choice control: the first page without parameters that has one is its privacy-choice page */
  offersPrivacyChoices?: true;
  /** questions and answers the block shows, for the page's FAQPage JSON-LD */
  faqItems?: (block: BlockOf<K>) => readonly FaqItem[];
  /**
   * The content item the block shows, for the page's article JSON-LD (undefined when it failed to load).
   * A method, not a property, so that a spec may take its own data type where the map holds `unknown`.
   */
  article?(data: D): ContentBodyData | undefined;
}

export interface FaqItem {
  question: string;
  answer: string;
}

/** A spec whatever its data and loaded content (the loader's result goes only to its own resolver). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySpec<K extends BlockType> = BlockSpec<K, unknown, any>;

/** The data a spec's resolver gives (null for a block without one). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DataOfSpec<S> = S extends { data?: undefined } ? null : S extends BlockSpec<any, infer D, any> ? D : null;

/** Every block type's spec, as the catalog receives it: an entry missing for a block type fails `tsc`. */
export type BlockSpecs = { readonly [K in BlockType]: AnySpec<K> };

/** One block type's spec, for code that handles any block (the map's entries are typed per type). */
export const specOf = <K extends BlockType>(specs: BlockSpecs, type: K): AnySpec<K> => specs[type];

/** The data types of a spec map, by block type (what the generated map merges into engine/site/model.ts BlockDataByType). */
export type DataOfSpecs<S extends BlockSpecs> = { [K in BlockType]: DataOfSpec<S[K]> };
