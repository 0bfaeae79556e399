// @ts-check
/**
 * @trieb.work/nextjs-turbo-redis-cache's RedisStringsHandler (1.18.0, pinned in package.json)
 * without its tag bookkeeping, so the page cache stays bounded by Redis's maxmemory.
 *
 * What the library keeps besides the pages (read in its dist/index.mjs):
 * - `sharedTagsMap`: every cached key → its tags (for a pages-router page just the implicit
 *   tag `_N_T_{key}`), in a Map in each process AND in one Redis hash `{prefix}__sharedTags__`
 *   written on every set, published to every instance, re-read in full (HSCAN + a SCAN of all
 *   keys) at start and every hour. Its only reader is revalidateTag(), to find the keys a tag
 *   covers. It grows with every page ever cached: ~433 B/page/instance and ~364 B/page in one
 *   hash that LRU can only evict whole (12 brands × 120,000 pages ≈ 620 MB per instance).
 * - `revalidatedTagsMap`: tag → time of its last revalidateTag, read only for `FETCH` entries
 *   (the app router's fetch cache; the pages router has none).
 * - `inMemoryDeduplicationCache`: read deduplication, already off (redisGetDeduplication).
 *
 * We only use the pages router: a page is revalidated by `res.revalidate(path)`, which renders
 * it again and set()s it over the old entry — no tags involved. So here the three maps are
 * made without connecting (no subscriber connection each, no resync) and replaced by
 * stand-ins that hold nothing: the handler holds one Redis connection. revalidateTag() still works for the only tags
 * a pages-router entry has, the implicit `_N_T_{key}`: the key is in the tag, no map needed.
 * What stays in Redis is one string key per page with a TTL — each evicted on its own.
 *
 * Private fields of the library are touched here (and only here): `client`, `sharedTagsMap`,
 * `revalidatedTagsMap`, `inMemoryDeduplicationCache`, `redisConnectionDeferred`, and on the
 * retired maps `filterKeys`, `cleanupKeysNotInRedis`, `map`. tests/unit/page-cache-bounds.test.ts
 * fails if an upgrade changes them (a tag hash appears, per-page memory grows), and
 * tests/unit/page-cache-redis-lost.test.ts if the handler opens more than its one connection.
 */
import { RedisStringsHandler, shouldDeferRedisConnection } from '@trieb.work/nextjs-turbo-redis-cache';

/** next/constants' PHASE_PRODUCTION_BUILD, the phase in which the library defers connecting. */
const PHASE_PRODUCTION_BUILD = 'phase-production-build';

/** Next's implicit tag of a cache key (NEXT_CACHE_IMPLICIT_TAG_ID). */
export const IMPLICIT_TAG = '_N_T_';

/**
 * A map the library set up that we do not use: it keeps nothing from now on. It never
 * connected (see the constructor), so there is no subscriber to close and no re-read to stop.
 * @param {any} map a SyncedMap
 */
function retire(map) {
  map.filterKeys = () => false;
  map.cleanupKeysNotInRedis = async () => {};
  map.map?.clear?.();
}

/**
 * What the library's code reads from a tag map, holding nothing.
 * @param {Promise<void>} ready
 */
function emptyTagMap(ready) {
  return {
    waitUntilReady: () => ready,
    get: () => undefined,
    has: () => false,
    set: async () => {},
    delete: async () => {},
    entries: () => new Map().entries(),
  };
}

/** Resolves once the client is connected (at once during `next build`, which never connects). @param {any} client */
function whenConnected(client) {
  if (shouldDeferRedisConnection() || client.isReady) return Promise.resolve();
  return new Promise((resolve) => client.once('ready', resolve));
}

/** The library's private fields of a handler (typed as private in its .d.ts). @param {RedisStringsHandler} handler @returns {Record<string, any>} */
const libraryFields = (handler) => /** @type {any} */ (handler);

/**
 * The connection's errors said once per absence, with the reason (and again once Redis has been
 * back): node-redis reports every failed reconnection attempt, and the library logged each with
 * its stack — two a second, a thousand lines a minute, for as long as Redis was away. Its own
 * listener stays when KILL_CONTAINER_ON_ERROR_THRESHOLD asks it to count errors and exit.
 * @param {any} client node-redis client
 */
function quietErrors(client) {
  if (Number(process.env.KILL_CONTAINER_ON_ERROR_THRESHOLD) > 0) return;
  client.removeAllListeners('error');
  let said = false;
  client.on('error', (/** @type {Error} */ err) => {
    if (!said) console.error('[page-cache] Redis connection error (retrying until it answers):', err.message);
    said = true;
  });
  client.on('ready', () => (said = false));
}

export class PathOnlyRedisHandler extends RedisStringsHandler {
  /** @param {ConstructorParameters<typeof RedisStringsHandler>[0]} options */
  constructor(options) {
    const building = shouldDeferRedisConnection();
    // No hourly re-read (0 disables the library's interval), no read deduplication, no copy with a fixed lifetime.
    const settings = { ...options, avgResyncIntervalMs: 0, redisGetDeduplication: false, inMemoryCachingTime: 0 };
    // Made as if during `next build`, when the library connects nothing: its three tag maps
    // then finish their setup at once, without a subscriber connection each. Otherwise a map
    // whose setup fails (Redis lost while it subscribes) rejects a promise nobody holds — an
    // unhandled rejection from inside the library. Synchronous: no other code runs while
    // NEXT_PHASE is borrowed.
    const phase = process.env.NEXT_PHASE;
    process.env.NEXT_PHASE = PHASE_PRODUCTION_BUILD;
    try {
      super(settings);
    } finally {
      if (phase === undefined) delete process.env.NEXT_PHASE;
      else process.env.NEXT_PHASE = phase;
    }
    const fields = libraryFields(this);
    // The page client connects here instead, as the library would have: node-redis keeps
    // retrying until Redis answers, reporting each failure as an 'error' event (logged by the library).
    fields.redisConnectionDeferred = building;
    quietErrors(fields.client);
    if (!building) fields.client.connect().catch((/** @type {Error} */ err) => console.error('[page-cache] Redis connection failed:', err.message));
    for (const map of [fields.sharedTagsMap, fields.revalidatedTagsMap, fields.inMemoryDeduplicationCache]) retire(map);
    const ready = whenConnected(fields.client);
    fields.sharedTagsMap = emptyTagMap(ready);
    fields.revalidatedTagsMap = emptyTagMap(ready);
    this.prefix = options.keyPrefix ?? '';
  }

  /** The Redis client (for the optional keyspace copy's subscriber). @returns {any} */
  get redisClient() {
    return libraryFields(this).client;
  }

  /**
   * Deletes the entries of implicit tags (`_N_T_{key}`); other tags never reach a
   * pages-router cache and are ignored.
   * @param {string | string[]} tagOrTags
   */
  async revalidateTag(tagOrTags) {
    const keys = [tagOrTags]
      .flat()
      .filter((t) => typeof t === 'string' && t.startsWith(IMPLICIT_TAG))
      .map((t) => this.prefix + t.slice(IMPLICIT_TAG.length));
    if (keys.length === 0) return;
    await whenConnected(this.redisClient);
    await this.redisClient.unlink(keys);
  }
}
