/**
 * type → component. Typed against the generated block union: a block declared in a
 * blocks/<type>/schema.json but missing here fails `tsc`. Interactive blocks are React.lazy
 * (rendered on the server, their chunk fetched by the browser only on pages that use them).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { BlockType } from '../schemas/brand.types';
import type { BlockProps } from './types';
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

type Loaded = { default: ComponentType<any> };
const preloaders = new Map<unknown, () => Promise<void>>();

/**
 * React.lazy whose module, once preloaded, is handed over synchronously (a thenable that calls
 * back at once), so the server render does not suspend. A lazy block that suspends on the server
 * is streamed as a hidden segment plus an inline script ($RC) that reveals it — an inline script
 * whose text varies per page, which the Content-Security-Policy (hashes, no nonces) would refuse,
 * leaving the block hidden. getStaticProps preloads the page's blocks (preloadBlocks).
 */
function lazyBlock(load: () => Promise<Loaded>): LazyExoticComponent<ComponentType<any>> {
  let loaded: Loaded | undefined;
  const component = lazy(() => (loaded ? ({ then: (resolve: (m: Loaded) => void) => resolve(loaded!) } as unknown as Promise<Loaded>) : load()));
  preloaders.set(component, () => load().then((m) => void (loaded = m)));
  return component;
}

export const registry: Registry = {
  addressAutocomplete: lazyBlock(() => import('./addressAutocomplete/AddressAutocomplete')),
  applyCta: ApplyCta,
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

/** Loads the modules of the page's lazy blocks before the server renders it (see lazyBlock). */
export async function preloadBlocks(types: Iterable<BlockType>): Promise<void> {
  await Promise.all([...new Set(types)].map((t) => preloaders.get(registry[t])?.()));
}
