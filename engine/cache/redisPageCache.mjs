// @ts-check
/**
 * Next's `cacheHandler` when REDIS_URL is set (next.config.ts): the ISR page cache shared by
 * every instance, in Redis. A thin wrapper around @trieb.work/nextjs-turbo-redis-cache (the
 * engine that stores, expires and deduplicates), so the engine can be replaced by changing
 * this file only. Plain JavaScript: Next imports it at run time, unbundled.
 *
 * What this file decides:
 * - keys are `loansites:{BUILD_ID}:{path}`: instances of one build share pages; a new build
 *   never serves HTML that names the old build's chunks (old keys age out of Redis's LRU);
 * - no instance serves a stale private copy. PAGE_CACHE_LOCAL_COPY chooses how:
 *   `off` (the default) — every cache hit is one Redis GET; `keyspace` — a bounded in-process copy (PAGE_CACHE_LOCAL_MB, default 64) dropped when
 *   Redis announces that a key was written, deleted, expired or evicted (keyspace
 *   notifications `E$gxe`, set in deploy/redis.conf). While the subscription is down the copy
 *   is bypassed and emptied, so a missed announcement cannot leave an old page behind.
 *   The handler's own 10 s in-memory copy is switched off (inMemoryCachingTime: 0): nothing
 *   would tell it that another instance revalidated the page. So is its read deduplication:
 *   it publishes a message to every instance after each read.
 * - bounded: the library's map of every cached page (its tag map, per process and as one
 *   Redis hash) is not kept — see pathOnlyRedisHandler.mjs. Redis holds one key per page,
 *   bounded by maxmemory + allkeys-lru; a process holds no per-page state beyond the
 *   optional local copy, bounded by PAGE_CACHE_LOCAL_MB.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shouldDeferRedisConnection } from '@trieb.work/nextjs-turbo-redis-cache';
import { onShutdown } from '../process/shutdown.mjs';
import { publishedBrandsKnown, renderIsCurrent } from './brandRenders.mjs';
import { PathOnlyRedisHandler } from './pathOnlyRedisHandler.mjs';

const HOLDER = Symbol.for('loansites.pageCache');

/** The Redis database of a redis:// URL (its path), 0 when none. */
export function redisDatabase(url = process.env.REDIS_URL ?? '') {
  try {
    const n = Number(new URL(url).pathname.replace(/^\//, '') || 0);
    return Number.isInteger(n) && n >= 0 ? n : 0;
  } catch {
    return 0;
  }
}

/** @param {string | undefined} serverDistDir */
function buildId(serverDistDir) {
  try {
    return readFileSync(join(serverDistDir ?? join(process.cwd(), '.next/server'), '..', 'BUILD_ID'), 'utf8').trim();
  } catch {
    return 'dev';
  }
}

/**
 * A bounded copy of recently read entries, kept only while this process hears every change
 * Redis makes to the keys (keyevent notifications on a second connection).
 * @param {{ client: any, database: number, keyPrefix: string, maxBytes: number }} opts
 */
function keyspaceCopy({ client, database, keyPrefix, maxBytes }) {
  /** @type {Map<string, { entry: any, bytes: number }>} */
  const entries = new Map();
  let bytes = 0;
  let listening = false;
  // Bumped by every invalidation: a read that overlapped one is not kept (its answer may predate it).
  let generation = 0;
  const remove = (/** @type {string} */ key) => {
    const e = entries.get(key);
    if (e) {
      entries.delete(key);
      bytes -= e.bytes;
    }
  };
  const drop = (/** @type {string} */ key) => {
    remove(key);
    generation++;
  };
  const clear = () => {
    entries.clear();
    bytes = 0;
    generation++;
  };
  let subscribed = false;
  const subscriber = client.duplicate();
  subscriber.on('error', (/** @type {Error} */ err) => {
    if (listening) console.error('[page-cache] keyspace subscription lost; local copy off until it is back:', err.message);
    listening = false;
    clear();
  });
  subscriber.on('end', () => ((listening = false), clear()));
  subscriber.on('reconnecting', () => ((listening = false), clear()));
  // node-redis re-subscribes after a reconnect; anything said meanwhile was missed, so start empty.
  subscriber.on('ready', () => {
    if (!subscribed) return;
    clear();
    listening = true;
  });
  const channels = ['set', 'del', 'expired', 'evicted', 'rename_from'].map((e) => `__keyevent@${database}__:${e}`);
  (async () => {
    await subscriber.connect();
    const config = (await subscriber.configGet('notify-keyspace-events'))?.['notify-keyspace-events'] ?? '';
    const has = (/** @type {string} */ c) => config.includes(c) || (c !== 'E' && c !== 'K' && config.includes('A'));
    if (!(has('E') && has('$') && has('g') && has('x') && has('e'))) {
      console.error(`[page-cache] Redis notify-keyspace-events is "${config}"; the local copy needs E$gxe (deploy/redis.conf). Serving every hit from Redis.`);
      await subscriber.quit();
      return;
    }
    await subscriber.subscribe(channels, (/** @type {string} */ key) => {
      if (key.startsWith(keyPrefix)) drop(key.slice(keyPrefix.length));
    });
    subscribed = true;
    clear();
    listening = true;
  })().catch((/** @type {Error} */ err) => console.error('[page-cache] keyspace subscription failed; serving every hit from Redis:', err.message));

  return {
    /** Unsubscribes and closes the subscriber's connection (a process shutting down, or a test ending). */
    async close() {
      subscribed = false;
      listening = false;
      await shut(subscriber);
    },
    get listening() {
      return listening;
    },
    get generation() {
      return generation;
    },
    get bytes() {
      return bytes;
    },
    /** @param {string} key */
    get(key) {
      if (!listening) return undefined;
      const e = entries.get(key);
      if (!e) return undefined;
      entries.delete(key); // most recently used last
      entries.set(key, e);
      return e.entry;
    },
    /** @param {string} key @param {any} entry @param {number} since the generation when the read began */
    put(key, entry, since) {
      if (!listening || since !== generation) return;
      const value = entry?.value;
      const size = 256 + (typeof value?.html === 'string' ? value.html.length : 0) + (value?.pageData ? JSON.stringify(value.pageData).length : 0);
      if (size > maxBytes / 4) return;
      remove(key);
      entries.set(key, { entry, bytes: size });
      bytes += size;
      while (bytes > maxBytes) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        const e = /** @type {{ bytes: number }} */ (entries.get(oldest));
        entries.delete(oldest);
        bytes -= e.bytes;
      }
    },
    drop,
  };
}

/**
 * Whether the page cache's Redis connection is up, logged once per change (the client's own
 * errors repeat on every reconnection attempt). The first call waits up to 1 s for the first
 * connection (the cache is made on the first request); after that the answer is immediate.
 * During `next build` the library never connects: nothing is stored then, as before.
 * @param {any} client node-redis client
 * @returns {() => Promise<boolean>}
 */
function redisReachability(client) {
  if (shouldDeferRedisConnection()) return async () => false;
  /** @type {Promise<void> | undefined} */
  let firstConnection = new Promise((resolve) => {
    client.once('ready', () => resolve());
    setTimeout(resolve, 1000).unref();
  });
  let reported = true;
  return async () => {
    if (firstConnection && !client.isReady) await firstConnection;
    firstConnection = undefined;
    const up = Boolean(client.isReady);
    if (up !== reported) {
      reported = up;
      if (up) console.log('[page-cache] Redis is reachable again: pages are shared and cached');
      else console.error('[page-cache] Redis is unreachable: pages are rendered on every request and not stored until it is back');
    }
    return up;
  };
}

/**
 * Closes a node-redis connection. QUIT goes through the command queue, so on a connection that is
 * retrying (Redis gone) it would wait for a reconnect that may never come: that one is dropped.
 * @param {any} client
 */
async function shut(client) {
  if (!client?.isOpen) return;
  if (client.isReady) await client.quit().catch(() => undefined);
  else await client.disconnect().catch(() => undefined);
}

/**
 * The entry's lifetime ({revalidate, expire}, from getStaticProps) travels with it. Next 16.4
 * reads `cacheControl` from what get() returns; without it an instance that did not render the
 * page itself takes it for stale at once (no Cache-Control header, a second render in the
 * background). The handler stores only {lastModified, tags, value}, so it rides in the value.
 */
const LIFETIME = '__loansitesCacheControl';

/** @param {any} entry */
function withLifetime(entry) {
  const value = entry?.value;
  if (!value || typeof value !== 'object' || !(LIFETIME in value)) return entry;
  const { [LIFETIME]: cacheControl, ...rest } = value;
  return { ...entry, value: rest, cacheControl };
}

/** How long a read or a write waits for the deletions owed under its page before it goes without Redis (a miss; not stored). */
const SETTLE_WAIT_MS = 500;

/**
 * One process's page cache. Exported for the tests, which make two (two "instances") in one process.
 * @param {{ serverDistDir?: string, redisUrl?: string, localCopy?: string, keyPrefix?: string }} ctx
 */
export function createPageCache(ctx) {
  const redisUrl = ctx.redisUrl ?? process.env.REDIS_URL;
  const database = redisDatabase(redisUrl);
  const keyPrefix = ctx.keyPrefix ?? `loansites:${buildId(ctx.serverDistDir)}:`;
  const mode = (ctx.localCopy ?? process.env.PAGE_CACHE_LOCAL_COPY) === 'keyspace' ? 'keyspace' : 'off';
  // No private copy with a fixed lifetime, no read deduplication, no tag map: see pathOnlyRedisHandler.mjs.
  const handler = new PathOnlyRedisHandler({ redisUrl, database, keyPrefix });
  const client = handler.redisClient;
  const local =
    mode === 'keyspace' ? keyspaceCopy({ client, database, keyPrefix, maxBytes: Number(process.env.PAGE_CACHE_LOCAL_MB ?? 64) * 1024 * 1024 }) : undefined;
  /** Reads from Redis, giving back the entry's lifetime where set() stored it. @param {string} key @param {any} getCtx */
  const read = async (key, getCtx) => withLifetime(await handler.get(key, getCtx));
  const reachable = redisReachability(client);

  /** Deletes from Redis every page whose internal path is `path` or under it; the count deleted. @param {string} path */
  const removeUnder = async (path) => {
    let dropped = 0;
    for (const pattern of [`${keyPrefix}*${path}`, `${keyPrefix}*${path}/*`]) {
      /** @type {string[]} */
      let batch = [];
      for await (const found of client.scanIterator({ MATCH: pattern, COUNT: 500 })) {
        batch.push(...[found].flat());
        if (batch.length >= 500) {
          dropped += await client.unlink(batch);
          batch = [];
        }
      }
      if (batch.length) dropped += await client.unlink(batch);
    }
    return dropped;
  };

  // Pages this process was asked to delete (a brand's document changed) while Redis did not
  // answer. Redis may come back still holding them — a network cut or a failover keeps its data —
  // and every instance would then serve the brand as it was before the change, for the pages'
  // whole lifetime. So the deletion is owed: made as soon as Redis is back, and until it is made
  // none of those pages is read from Redis or stored there. path → the number of the request
  // that failed, so that one failing while another run was under way is made again.
  /** @type {Map<string, number>} */
  const owed = new Map();
  let asked = 0;
  /** @type {Promise<void> | undefined} */
  let settling;
  let complained = false;
  /** @param {string} key */
  const isOwed = (key) => [...owed.keys()].some((path) => key.endsWith(path) || key.includes(`${path}/`));
  /** Makes the owed deletions, one run at a time; what fails stays owed (tried again at the next read, or the next reconnection). */
  const settle = () =>
    (settling ??= (async () => {
      try {
        for (const [path, n] of [...owed]) {
          if (!client.isReady) return;
          const dropped = await removeUnder(path);
          if (owed.get(path) === n) owed.delete(path);
          console.log(`[page-cache] Redis is back: ${dropped} page(s) under ${path} deleted, as asked while it was unreachable`);
        }
        complained = false;
      } catch (err) {
        // said once until a run succeeds: every read tries again
        if (!complained)
          console.error(`[page-cache] pages owed a deletion are still not deleted (tried again at each read): ${/** @type {Error} */ (err).message}`);
        complained = true;
      }
    })().finally(() => (settling = undefined)));
  /** Whether `key` may be read from or stored in Redis: not while a deletion owed under it is not made (waited for briefly). @param {string} key */
  const settled = async (key) => {
    if (!owed.size || !isOwed(key)) return true;
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    await Promise.race([settle(), new Promise((resolve) => (timer = setTimeout(resolve, SETTLE_WAIT_MS)))]);
    clearTimeout(timer);
    return !isOwed(key);
  };
  client.on('ready', () => {
    if (owed.size) void settle();
  });

  console.log(`[page-cache] Redis page cache (database ${database}, prefix ${keyPrefix}, local copy ${mode})`);
  return {
    /** @param {string} key @param {any} getCtx */
    async get(key, getCtx) {
      // Redis unreachable (down at start, or lost): a miss at once, so Next renders the page,
      // instead of the library's wait of up to 30 s for a connection on every request.
      if (!(await reachable())) return null;
      if (!(await settled(key))) return null;
      if (!local || getCtx?.kind !== 'PAGES') return read(key, getCtx);
      const hit = local.get(key);
      if (hit) return hit;
      const since = local.generation;
      const entry = await read(key, getCtx);
      if (entry) local.put(key, entry, since);
      return entry;
    },
    /** @param {string} key @param {any} data @param {any} setCtx */
    async set(key, data, setCtx) {
      local?.drop(key);
      const current = renderIsCurrent(key);
      if (!(await reachable())) return; // not stored: the next request renders it again
      if (!(await settled(key))) return; // the deletion owed under it would take it away
      // made from a brand's file while this process could not read the published documents (./brandRenders.mjs): not shared
      if (!publishedBrandsKnown() && key.includes('/_brand/')) return;
      // a page made from a brand document or content that changed meanwhile (./brandRenders.mjs):
      // not shared, and no instance is served what Redis holds for it
      if (!current) return void (await client.unlink(keyPrefix + key).catch(() => 0));
      const lifetime = setCtx?.cacheControl;
      // A copy of the context: the library adds the implicit tag to ctx.tags in place.
      return handler.set(key, data && typeof data === 'object' && lifetime ? { ...data, [LIFETIME]: lifetime } : data, { ...setCtx });
    },
    /** @param {any[]} args */
    async revalidateTag(...args) {
      if (!(await reachable())) throw new Error('the shared page cache (Redis) is unreachable: nothing was revalidated');
      return handler.revalidateTag(args[0]);
    },
    /**
     * Deletes from Redis every page whose internal path is `path` or under it (a brand's
     * /_brand/{id}: its document changed), for every instance (each local copy hears the deletions);
     * the count deleted. With Redis unreachable, or failing, the deletion is owed (see `owed`).
     * @param {string} path
     */
    async dropUnder(path) {
      const n = ++asked;
      if (!(await reachable())) {
        owed.set(path, n); // made when Redis is back
        return 0;
      }
      let dropped;
      try {
        dropped = await removeUnder(path);
      } catch (err) {
        owed.set(path, n);
        throw err;
      }
      // what was owed before this deletion began is made by it
      if ((owed.get(path) ?? n) < n) owed.delete(path);
      return dropped;
    },
    /** the handler, for tests that check what it keeps */
    handler,
    /** Closes this process's Redis connections, so none is left retrying (and logging) after Redis goes away. */
    async close() {
      await local?.close();
      await shut(client);
    },
    /** bytes held by the local copy (0 without one) */
    get localCopyBytes() {
      return local?.bytes ?? 0;
    },
    /** whether hits are being served from this process's copy (keyspace mode, subscription up) */
    get localCopyActive() {
      return Boolean(local?.listening);
    },
  };
}

/** The class Next instantiates (once per request); the Redis connections are one per process. */
export default class LoansitesPageCache {
  /** @param {{ serverDistDir?: string }} ctx */
  constructor(ctx = {}) {
    const g = /** @type {Record<symbol, ReturnType<typeof createPageCache>>} */ (/** @type {unknown} */ (globalThis));
    if (!g[HOLDER]) {
      const cache = (g[HOLDER] = createPageCache(ctx));
      onShutdown('page cache', 'connections', () => cache.close());
    }
    this.cache = g[HOLDER];
  }
  /** @param {string} key @param {any} ctx */
  get(key, ctx) {
    return this.cache.get(key, ctx);
  }
  /** @param {string} key @param {any} data @param {any} ctx */
  set(key, data, ctx) {
    return this.cache.set(key, data, ctx);
  }
  /** @param {any[]} args */
  revalidateTag(...args) {
    return this.cache.revalidateTag(...args);
  }
  resetRequestCache() {}
}
