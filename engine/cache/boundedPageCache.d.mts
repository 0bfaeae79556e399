/* eslint-disable @typescript-eslint/no-explicit-any -- the entries are Next's own cache values, untyped in its public API */
/** Types of engine/cache/boundedPageCache.mjs (plain JavaScript: Next loads it unbundled). */
export interface PageCacheStats {
  maxBytes: number;
  bytes: number;
  entries: number;
  stored: number;
  evicted: number;
  notFoundSkipped: number;
  largest: number;
  /** cache hits answered by server.mjs (engine/cache/cachedPageReplay.mjs) */
  replayed: number;
}
export declare function entryBytes(value: unknown, htmlBytes?: number): number;
export type PageCacheStore = {
  stats: PageCacheStats;
  keyOf(internalPath: string): string | undefined;
  get(key: string): any;
  set(key: string, data: unknown, cacheControl: unknown): void;
  delete(key: string): void;
};
export declare function createStore(maxBytes?: number): PageCacheStore;
export declare const pageCacheStore: () => PageCacheStore | undefined;
export declare const pageCacheStats: () => PageCacheStats | undefined;
export default class BoundedPageCache {
  get(key: string): Promise<any>;
  set(key: string, data: unknown, ctx?: { cacheControl?: unknown }): Promise<void>;
  revalidateTag(): Promise<void>;
  resetRequestCache(): void;
}
