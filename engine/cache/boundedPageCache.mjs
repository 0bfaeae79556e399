// @ts-check
/**
 * Next's `cacheHandler` for a single instance (no REDIS_URL; next.config.ts): the ISR page cache
 * held in memory only, bounded by size, least recently used out first. Next's default handler
 * writes every page it renders to .next/server (html + json + meta, never removed) and keeps
 * notFound results per path; a crawler walking every city of every brand, or anyone requesting
 * made-up city slugs, would fill the disk. Here:
 * - nothing is written to disk; the total is capped at PAGE_CACHE_MB (default 128) of HTML +
 *   page data, the least recently used pages dropped first;
 * - a notFound result is never stored (the brand's 404 page is rendered from a model kept once
 *   per brand, engine/site/notFoundPage.ts), and Next's own per-path lifetime entry for it, or for a
 *   dropped page, is removed too (Next keeps those in an unbounded map);
 * - a restart starts empty: pages are rendered again on first request (behind the deployment's
 *   HTTP cache, deploy/, most never reach the server).
 * PAGE_CACHE_STATS=1 lets server.mjs answer GET /__page-cache on loopback with the counters
 * (tests and npm run bench read them).
 * Plain JavaScript: Next loads it at run time, unbundled.
 *
 * Plain JavaScript typed with JSDoc, which TypeScript reads (tsconfig allowJs; no .d.mts to keep in step): Next loads the page cache handler unbundled (next.config.ts cacheHandler), and server.mjs reads its counters.
 */
import { createRequire } from 'node:module';
import { skipPageSizeCheck } from './pageSizeCheck.mjs';
import { renderIsCurrent } from './brandRenders.mjs';

const STATS = Symbol.for('loansites.boundedPageCache');
const MB = 1024 * 1024;
/** Pages stored and not yet sent whose bytes are kept at hand: more than the renders a busy instance has in flight. */
const UNSENT_PAGES = 32;

/** Next's per-path lifetimes (revalidate/expire) map, when this Next version has it where we look. */
function nextLifetimes() {
  try {
    const require = createRequire(import.meta.url);
    // a private field of Next's: read where this version keeps it, checked below
    const mod = /** @type {any} */ (require('next/dist/server/lib/incremental-cache/shared-cache-controls.external.js'));
    const map = mod?.SharedCacheControls?.cacheControls;
    return map instanceof Map ? map : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The bytes of a page's data as JSON, without the brand view when it is the one all pages of the
 * brand share (frozen, held by engine/site/brandView.ts whatever the cache holds); a page with a brand
 * object of its own (the blog host's links) counts it. Measured against the heap over 3,000 city
 * pages: 8.8 KB of heap per page for this data; counting the HTML's __NEXT_DATA__ copy instead,
 * as before, said ~1.5 KB.
 */
function pageDataBytes(/** @type {any} */ pageData) {
  if (pageData === undefined) return 0;
  const model = pageData?.pageProps?.model;
  if (!model || typeof model !== 'object' || !Object.isFrozen(model.brand)) return JSON.stringify(pageData).length;
  const { brand: _shared, ...own } = model;
  return JSON.stringify({ ...pageData, pageProps: { ...pageData.pageProps, model: own } }).length;
}

/** Bytes an entry holds: its HTML (`htmlBytes` when the caller has them) and its page data; a redirect's props. */
export function entryBytes(/** @type {any} */ value, /** @type {number | undefined} */ htmlBytes = undefined) {
  if (!value) return 0;
  if (typeof value.html === 'string') return (htmlBytes ?? Buffer.byteLength(value.html)) + pageDataBytes(value.pageData);
  return Buffer.byteLength(JSON.stringify(value));
}

/** The store itself, shared by every handler instance of the process. */
export function createStore(maxBytes = Number(process.env.PAGE_CACHE_MB ?? 128) * MB) {
  /** @type {Map<string, { entry: any, bytes: number, usedAt?: number }>} */
  const entries = new Map();
  /** Gets and sets so far: when each entry was last moved to the most recently used end. */
  let uses = 0;
  /** The key last moved to (or stored at) the most recently used end, while it is still there. */
  let lastKey = /** @type {string | undefined} */ (undefined);
  const lifetimes = nextLifetimes();
  const asBytes = process.env.PAGE_CACHE_BUFFERS !== '0';
  // renderedDirect: misses rendered by server.mjs itself (coldPageRender.mjs), not through Next's pipeline
  const stats = { maxBytes, bytes: 0, entries: 0, stored: 0, evicted: 0, notFoundSkipped: 0, largest: 0, replayed: 0, renderedDirect: 0 };
  /**
   * The HTML of the pages stored last, as Next handed it and as the bytes kept, until Next sends
   * the same string as the page's response (engine/cache/cachedPageReplay.mjs sends these bytes
   * instead of encoding the string again); a few only: a page stored and not sent that way (a
   * background revalidation, a data request) is pushed out by the next ones.
   * @type {Map<string, { text: string, bytes: Buffer }>}
   */
  const unsent = new Map();
  /** What Next puts before a page's path in its cache keys (learnt from the first brand page stored, or found not to exist). */
  let keyPrefix = /** @type {string | undefined} */ (undefined);
  const remove = (/** @type {string} */ key) => {
    const e = entries.get(key);
    if (!e) return;
    entries.delete(key);
    if (key === lastKey) lastKey = undefined;
    stats.bytes -= e.bytes;
    stats.entries = entries.size;
  };
  return {
    stats,
    /** The cache key of a brand page's internal path (/_brand/{brand}/…), once Next has stored one. */
    keyOf(/** @type {string} */ internalPath) {
      return keyPrefix === undefined ? undefined : keyPrefix + internalPath;
    },
    /** @param {string} key */
    get(key) {
      const e = entries.get(key);
      if (!e) return null;
      // Most recently used last. Moving an entry there costs a delete and an insert (and, in a
      // small map, a new table every few moves), and a replayed hit reads the same few pages
      // thousands of times a second: the entry already last stays put, and so does one moved
      // there fewer than half the store's size of uses ago (still in the newer half, far from
      // being dropped).
      uses++;
      if (key !== lastKey && uses - (e.usedAt ?? -Infinity) >= entries.size / 2) {
        entries.delete(key);
        entries.set(key, e);
        e.usedAt = uses;
        lastKey = key;
      }
      return e.entry;
    },
    /** @param {string} key @param {any} data @param {any} cacheControl */
    set(key, data, cacheControl) {
      remove(key);
      // learnt from a brand page's notFound too: the start's 404 (server.mjs) is one, and the cold path (coldPageRender.mjs) needs the keys from the first page on
      if (keyPrefix === undefined && key.includes('/_brand/')) keyPrefix = key.slice(0, key.indexOf('/_brand/'));
      if (!data) {
        stats.notFoundSkipped++;
        lifetimes?.delete(key);
        return;
      }
      // the HTML's bytes once: they are what is kept, and their length is its size
      const html = asBytes && typeof data.html === 'string' ? Buffer.from(data.html) : undefined;
      if (html) {
        unsent.delete(key);
        unsent.set(key, { text: data.html, bytes: html });
        if (unsent.size > UNSENT_PAGES) unsent.delete(/** @type {string} */ (unsent.keys().next().value));
      }
      const bytes = entryBytes(data, html?.length) + key.length;
      if (bytes > maxBytes) return;
      const value = html ? { ...data, html } : data;
      entries.set(key, { entry: { value, lastModified: Date.now(), ...(cacheControl ? { cacheControl } : {}) }, bytes, usedAt: ++uses });
      lastKey = key;
      stats.bytes += bytes;
      stats.stored++;
      stats.largest = Math.max(stats.largest, bytes);
      while (stats.bytes > maxBytes) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        remove(oldest);
        lifetimes?.delete(oldest);
        stats.evicted++;
      }
      stats.entries = entries.size;
    },
    /**
     * The bytes stored for `key` when `text` is the HTML they were made from (the page Next is
     * about to send after storing it), once; undefined otherwise.
     * @param {string} key @param {string} text
     */
    storedBytesOf(key, text) {
      const page = unsent.get(key);
      if (!page) return undefined;
      unsent.delete(key);
      return page.text === text ? page.bytes : undefined;
    },
    /** Forgets the page at `key`: its entry, its lifetime in Next's map, its bytes kept for sending. @param {string} key */
    delete(key) {
      remove(key);
      lifetimes?.delete(key);
      unsent.delete(key);
    },
    /**
     * Drops every page whose internal path is `path` or under it (a brand's /_brand/{id}: its
     * document changed); the count dropped. The replay serves only what is stored, so its copies go too.
     * @param {string} path
     */
    dropUnder(path) {
      let dropped = 0;
      for (const key of [...entries.keys()]) {
        const at = key.indexOf(path);
        if (at < 0 || (keyPrefix !== undefined && at !== keyPrefix.length)) continue;
        const rest = key.slice(at + path.length);
        if (rest !== '' && !rest.startsWith('/')) continue;
        remove(key);
        lifetimes?.delete(key);
        unsent.delete(key);
        dropped++;
      }
      return dropped;
    },
  };
}

/** @returns {ReturnType<typeof createStore>} */
function store() {
  const holder = /** @type {any} */ (globalThis);
  return (holder[STATS] ??= createStore());
}

/** This process's page cache store (undefined before Next created the handler, and with REDIS_URL). */
export const pageCacheStore = () => /** @type {ReturnType<typeof createStore> | undefined} */ (/** @type {any} */ (globalThis)[STATS]);

/** The counters of this process's page cache (undefined before Next created the handler). */
export const pageCacheStats = () => /** @type {any} */ (globalThis)[STATS]?.stats;

/** Next's own measuring of every page it stores, skipped (./pageSizeCheck.mjs) unless NEXT_PAGE_SIZE_CHECK=1 (kept to compare). */
const skipSizeCheck = process.env.NEXT_PAGE_SIZE_CHECK !== '1';

export default class BoundedPageCache {
  constructor() {
    store();
  }

  /** @param {string} key */
  async get(key) {
    // Next made its IncrementalCache (and this handler) for the request just before asking
    if (skipSizeCheck) skipPageSizeCheck();
    return store().get(key);
  }

  /** @param {string} key @param {any} data @param {any} ctx */
  async set(key, data, ctx) {
    // here too: server.mjs's cold path (coldPageRender.mjs) stores the misses it rendered without Next asking `get` first, from the first page on once the start's warm-up has run
    if (skipSizeCheck) skipPageSizeCheck();
    // a page made from a brand document or content that changed meanwhile (./brandRenders.mjs):
    // not kept, nor what was kept for it; the next request renders it again
    if (!renderIsCurrent(key)) return store().delete(key);
    store().set(key, data, ctx?.cacheControl);
  }

  async revalidateTag() {}

  resetRequestCache() {}
}
