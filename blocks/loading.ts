/**
 * How the blocks and the site chrome load. The registry (type → component) and the static chunk
 * are generated from the block folders (blocks/generated/, `npm run gen`); see lazyBlock.ts for
 * interactive and static blocks.
 */
import type { BlockType } from '../schemas/brand.types';
import { registry } from './generated/registry';
import { preloadLazy, staticBlock } from './lazyBlock';

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

/** In the browser: the chunk a client-side navigation needs (generated/staticBlocks.ts), ahead of time or when it happens. */
export const loadStaticBlocks = () => import('./generated/staticBlocks');
export const preloadStaticBlocks = () => loadStaticBlocks().then(() => undefined);
