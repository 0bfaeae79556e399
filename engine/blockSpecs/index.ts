/**
 * Every block type's spec, in one map typed over the block union: a block declared by a
 * blocks/<type>/schema.json without an entry here fails `tsc`. Adding a block that needs
 * server data = its folder (component, schema) + its spec file + its line here.
 */
import type { BlockType } from '../../schemas/brand.types';
import { getYourCashSpec, quickAmountSpec, rangeSliderSpec } from './amountWidgets';
import { applyCtaSpec } from './applyCta';
import { applyFormSpec } from './applyForm';
import { cityIndexSpec } from './cityIndex';
import { cityListSpec } from './cityList';
import { contentBodySpec } from './contentBody';
import { contentListSpec } from './contentList';
import { addressAutocompleteSpec, locationSearchSpec } from './geocoded';
import { heroSpec } from './hero';
import { linkGridSpec } from './linkGrid';
import { locationFactsSpec } from './locationFacts';
import { searchFormSpec } from './searchForm';
import { stateListSpec } from './stateList';
import { storeDirectorySpec } from './storeDirectory';
import { storeFactsSpec } from './storeFacts';
import type { BlockSpec, DataOfSpec } from './types';

/** A spec whatever its data and loaded content (the loader's result goes only to its own resolver). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySpec<K extends BlockType> = BlockSpec<K, unknown, any>;

export const BLOCK_SPECS = {
  addressAutocomplete: addressAutocompleteSpec,
  applyCta: applyCtaSpec,
  applyForm: applyFormSpec,
  cityIndex: cityIndexSpec,
  cityList: cityListSpec,
  contentBody: contentBodySpec,
  contentList: contentListSpec,
  faq: {},
  getYourCash: getYourCashSpec,
  hero: heroSpec,
  linkGrid: linkGridSpec,
  locationFacts: locationFactsSpec,
  locationSearch: locationSearchSpec,
  privacyChoice: {},
  quickAmount: quickAmountSpec,
  rangeSlider: rangeSliderSpec,
  richText: {},
  searchForm: searchFormSpec,
  stateList: stateListSpec,
  steps: {},
  storeDirectory: storeDirectorySpec,
  storeFacts: storeFactsSpec,
} satisfies { [K in BlockType]: AnySpec<K> };

/** Each block type's server data (null for a block without one). */
export type BlockData = { [K in BlockType]: DataOfSpec<(typeof BLOCK_SPECS)[K]> };

/** One block type's spec, for code that handles any block (the map's entries are typed per type). */
export const specOf = <K extends BlockType>(type: K): AnySpec<K> => BLOCK_SPECS[type] as AnySpec<K>;
