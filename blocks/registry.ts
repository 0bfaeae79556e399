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
  addressAutocomplete: lazyBlock(() => import('./addressAutocomplete/AddressAutocomplete')),
  applyCta: ApplyCta,
  // The application form: its chunk (with immer) is fetched only on apply pages; in the HTML in place (first step usable at once).
  applyForm: lazyBlock(() => import('./applyForm/ApplyForm'), { inline: true }),
  cityIndex: CityIndex,
  cityList: CityList,
  contentBody: ContentBody,
  contentList: ContentList,
  faq: Faq,
  getYourCash: lazyBlock(() => import('./getYourCash/GetYourCash')),
  hero: Hero,
  linkGrid: LinkGrid,
  locationFacts: LocationFacts,
  locationSearch: lazyBlock(() => import('./locationSearch/LocationSearch')),
  privacyChoice: lazyBlock(() => import('./privacyChoice/PrivacyChoice')),
  quickAmount: lazyBlock(() => import('./quickAmount/QuickAmount')),
  rangeSlider: lazyBlock(() => import('./rangeSlider/RangeSlider')),
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
