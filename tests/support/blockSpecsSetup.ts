/**
 * The unit tests' process starts like server.mjs: the catalog gets the block specs before
 * anything asks for it (engine/site/catalog.ts setBlockSpecs), so a test of an API route that looks
 * up its brand finds the catalog as the server does.
 */
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { setBlockSpecs } from '../../engine/site/catalog';

setBlockSpecs(BLOCK_SPECS);
