/**
 * Next's own IncrementalCache (the class the pages runtime stores rendered pages through, from the
 * installed next) in front of the single-instance page cache handler, and a brand page's entry as
 * Next hands it over: for the tests of what storing a page costs and keeps.
 */
import { IncrementalCache } from 'next/dist/server/lib/incremental-cache';
import BoundedPageCache from '../../engine/cache/boundedPageCache.mjs';

/** The brand catch-all's cache context (the route that owns the entry). */
export const BRAND_ROUTE = { kind: 'PAGES', sourceRoute: '/_brand/[brand]/[[...path]]' };

export function nextIncrementalCache(): IncrementalCache {
  return new IncrementalCache({
    dev: false,
    minimalMode: false,
    requestHeaders: {},
    previewProps: { previewModeId: 'test', previewModeSigningKey: 'test', previewModeEncryptionKey: 'test' },
    prerenderManifest: { version: 4, routes: {}, dynamicRoutes: {}, notFoundRoutes: [], preview: {} as never },
    maxMemoryCacheSize: 0,
    CurCacheHandler: BoundedPageCache as never,
  } as never);
}
