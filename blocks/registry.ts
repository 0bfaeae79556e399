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
import ApplyCta from './applyCta/ApplyCta';
import CityIndex from './cityIndex/CityIndex';
import CityList from './cityList/CityList';
import ContentBody from './contentBody/ContentBody';
import ContentList from './contentList/ContentList';
import Faq from './faq/Faq';
import Hero from './hero/Hero';
import LinkGrid from './linkGrid/LinkGrid';
import LocationFacts from './locationFacts/LocationFacts';
import RichText from './richText/RichText';
import SearchForm from './searchForm/SearchForm';
import StateList from './stateList/StateList';
import Steps from './steps/Steps';
import StoreDirectory from './storeDirectory/StoreDirectory';
import StoreFacts from './storeFacts/StoreFacts';

export type Registry = { [K in BlockType]: ComponentType<BlockProps<K>> };

export const registry: Registry = {
  addressAutocomplete: lazyBlock(() => import('./addressAutocomplete/AddressAutocomplete'), { inline: true }),
  applyCta: ApplyCta,
  // Interactive blocks are in the first HTML in place and at their final size (no Suspense
  // boundary: no streamed hidden segment, no jump when it is revealed, visible without script);
  // their chunk is still fetched only on pages that use them. The application form's brings immer.
  applyForm: lazyBlock(() => import('./applyForm/ApplyForm'), { inline: true }),
  cityIndex: CityIndex,
  cityList: CityList,
  contentBody: ContentBody,
  contentList: ContentList,
  faq: Faq,
  getYourCash: lazyBlock(() => import('./getYourCash/GetYourCash'), { inline: true }),
  hero: Hero,
  linkGrid: LinkGrid,
  locationFacts: LocationFacts,
  locationSearch: lazyBlock(() => import('./locationSearch/LocationSearch'), { inline: true }),
  privacyChoice: lazyBlock(() => import('./privacyChoice/PrivacyChoice'), { inline: true }),
  quickAmount: lazyBlock(() => import('./quickAmount/QuickAmount'), { inline: true }),
  rangeSlider: lazyBlock(() => import('./rangeSlider/RangeSlider'), { inline: true }),
  richText: RichText,
  searchForm: SearchForm,
  stateList: StateList,
  steps: Steps,
  storeDirectory: StoreDirectory,
  storeFacts: StoreFacts,
};

/**
 * Loads the modules of the page's lazy blocks before the server renders it (getStaticProps), so
 * no block suspends in the server render: a suspended block would be streamed as a hidden
 * segment revealed by an inline script, which the Content-Security-Policy (hashes, no nonces)
 * must know in advance.
 */
export async function preloadBlocks(types: Iterable<BlockType>): Promise<void> {
  await Promise.all([...new Set(types)].map((t) => preloadLazy(registry[t])));
}
