// @ts-check
/**
 * A brand's cached pages dropped when its document changes (a publish in the studio): from this
 * process's page cache — and with it the replay, which serves only what that cache holds — or,
 * with REDIS_URL, from the shared cache in Redis (every instance's local copy hears the
 * deletions). Other brands' pages are not touched: they stay cache hits.
 *
 * Every instance calls this once its own catalog holds the new document (engine/site/brandLive.ts),
 * so a page rendered by an instance that had not heard of the change yet is dropped again when it does;
 * a render under way here when it does is not stored (./brandRenders.mjs).
 */
import { pageCacheStore } from './boundedPageCache.mjs';
import { brandChanged } from './brandRenders.mjs';

/**
 * The Redis page cache Next made in this process (redisPageCache.mjs keeps it here), read without
 * importing that module: a server without REDIS_URL never loads the Redis cache library.
 * @returns {{ dropUnder(path: string): Promise<number> } | undefined}
 */
const redisPageCache = () => /** @type {any} */ (globalThis)[Symbol.for('loansites.pageCache')];

/** The internal path every page of a brand is cached under (engine/browser/requestPath.ts internalPath). */
const brandPath = (/** @type {string} */ id) => `/_brand/${id}`;

/**
 * Drops every cached page of the brand; the count dropped (from this process's cache, or Redis).
 * @param {string} id
 */
export async function dropBrandPages(id) {
  brandChanged(id);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) return 0;
  const local = pageCacheStore()?.dropUnder(brandPath(id)) ?? 0;
  const shared = (await redisPageCache()?.dropUnder(brandPath(id))) ?? 0;
  return local + shared;
}
