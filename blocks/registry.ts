/**
 * type → component. Typed against the generated block union: a block declared in a
 * blocks/<type>/schema.json but missing here fails `tsc`. Interactive blocks are React.lazy
 * (rendered on the server, their chunk fetched by the browser only on pages that use them),
 * through lazyBlock so that the server's HTML has them in place (see lazyBlock.ts).
 */
import type { ComponentType } from 'react';
import type { BlockType } from '../schemas/brand.types';
import type { BlockProps } from './types';
import { lazyBlock, preloadLazy } from './lazyBlock';

/** A static block: rendered on the server, kept as HTML by the browser on the first load (lazyBlock `kept`). */
type Statics = typeof import('./staticBlocks');
type PropsOf<C> = C extends ComponentType<infer P> ? P : never;
const staticBlock = <N extends keyof Statics>(name: N) =>
  lazyBlock<PropsOf<Statics[N]>>(() => import('./staticBlocks').then((m) => ({ default: m[name] as ComponentType<PropsOf<Statics[N]>> })), { kept: true });

export type Registry = { [K in BlockType]: ComponentType<BlockProps<K>> };

export const registry: Registry = {
  addressAutocomplete: lazyBlock(() => import('./addressAutocomplete/AddressAutocomplete'), { inline: true }),
  applyCta: staticBlock('ApplyCta'),
  // Interactive blocks are in the first HTML in place and at their final size (no Suspense
  // boundary: no streamed hidden segment, no jump when it is revealed, visible without script);
  // their chunk is still fetched only on pages that use them.
  applyForm: lazyBlock(() => import('./applyForm/ApplyForm'), { inline: true }),
  cityIndex: staticBlock('CityIndex'),
  cityList: staticBlock('CityList'),
  contactOptOut: lazyBlock(() => import('./contactOptOut/ContactOptOut'), { inline: true }),
  contentBody: staticBlock('ContentBody'),
  contentList: staticBlock('ContentList'),
  faq: staticBlock('Faq'),
  getYourCash: lazyBlock(() => import('./getYourCash/GetYourCash'), { inline: true }),
  hero: staticBlock('Hero'),
  linkGrid: staticBlock('LinkGrid'),
  locationFacts: staticBlock('LocationFacts'),
  locationSearch: lazyBlock(() => import('./locationSearch/LocationSearch'), { inline: true }),
  privacyChoice: lazyBlock(() => import('./privacyChoice/PrivacyChoice'), { inline: true }),
  quickAmount: lazyBlock(() => import('./quickAmount/QuickAmount'), { inline: true }),
  rangeSlider: lazyBlock(() => import('./rangeSlider/RangeSlider'), { inline: true }),
  richText: staticBlock('RichText'),
  searchForm: staticBlock('SearchForm'),
  stateList: staticBlock('StateList'),
  steps: staticBlock('Steps'),
  storeDirectory: staticBlock('StoreDirectory'),
  storeFacts: staticBlock('StoreFacts'),
};

/**
 * Loads the modules of the page's lazy blocks before the server renders it (getStaticProps), so
 * no block suspends in the server render: a suspended block would be streamed as a hidden
 * segment revealed by an inline script, which the Content-Security-Policy (hashes, no nonces)
 * must know in advance.
 */
export async function preloadBlocks(types: Iterable<BlockType>): Promise<void> {
  await Promise.all([...[...new Set(types)].map((t) => preloadLazy(registry[t])), preloadChrome()]);
}

/** The site chrome's header and footer: lazy like the static blocks (kept on the first load). */
export const LazyHeader = staticBlock('Header');
export const LazyFooter = staticBlock('Footer');
const preloadChrome = () => Promise.all([preloadLazy(LazyHeader), preloadLazy(LazyFooter)]);

/** In the browser: the chunk a client-side navigation needs (staticBlocks.ts), ahead of time or when it happens. */
export const loadStaticBlocks = () => import('./staticBlocks');
export const preloadStaticBlocks = () => loadStaticBlocks().then(() => undefined);
