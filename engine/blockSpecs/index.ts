/**
 * Every block type's spec (engine/blockSpecs/<type>.ts), in one map typed over the block
 * union (specMap.ts, written by `npm run gen:types` from the files here; a block type without
 * a spec file gets `{}`). Adding a block that needs server data = its folder under blocks/
 * plus its spec file here.
 */
import type { BlockType } from '../../schemas/brand.types';
import { BLOCK_SPECS } from './specMap';
import type { AnySpec, DataOfSpec } from './types';

export { BLOCK_SPECS };

/** Each block type's server data (null for a block without one). */
export type BlockData = { [K in BlockType]: DataOfSpec<(typeof BLOCK_SPECS)[K]> };

/** One block type's spec, for code that handles any block (the map's entries are typed per type). */
export const specOf = <K extends BlockType>(type: K): AnySpec<K> => BLOCK_SPECS[type] as AnySpec<K>;
