// @ts-check
/**
 * Next's IncrementalCache.set measures every entry as `JSON.stringify(data).length` before handing
 * it to the cache handler, whatever its kind, and uses the figure only for fetch-cache entries (a
 * 2 MB limit). For a page that is the whole HTML (~30 KB) and its props, the brand included,
 * serialised on every render and thrown away: measured with --cpu-prof over never-rendered pages,
 * ~7% of the server's CPU. The page cache handler (boundedPageCache.mjs) measures what it keeps
 * itself, so for a page entry the measuring is skipped: while Next's `set` runs up to the handler
 * (synchronously: nothing in it awaits before the handler's own synchronous `set`), the entry
 * answers JSON.stringify with a one-character stand-in through a non-enumerable toJSON, removed
 * when `set` returns. Fetch-cache entries keep Next's check. Nothing else sees the stand-in: the
 * handler copies the entry's own enumerable fields.
 */

const PATCHED = Symbol.for('loansites.pageSizeCheck');
const standIn = () => 0;

/**
 * Patches the class of Next's IncrementalCache `incrementalCache` is (Next keeps the last one it
 * made in globalThis.__incrementalCache), once; a later Next without `set` there is left alone.
 * Returns whether the class is patched.
 * @param {any} incrementalCache
 */
export function skipPageSizeCheck(incrementalCache = /** @type {any} */ (globalThis).__incrementalCache) {
  const proto = incrementalCache && typeof incrementalCache === 'object' ? Object.getPrototypeOf(incrementalCache) : undefined;
  if (!proto || typeof proto.set !== 'function') return false;
  if (proto[PATCHED]) return true;
  const original = proto.set;
  proto[PATCHED] = true;
  /** @param {string} pathname @param {any} data @param {any} ctx */
  proto.set = function set(pathname, data, ctx) {
    if (!data || typeof data !== 'object' || ctx?.fetchCache || data.kind === 'FETCH' || !Object.isExtensible(data) || Object.hasOwn(data, 'toJSON'))
      return original.call(this, pathname, data, ctx);
    Object.defineProperty(data, 'toJSON', { value: standIn, configurable: true, enumerable: false });
    try {
      return original.call(this, pathname, data, ctx);
    } finally {
      delete data.toJSON;
    }
  };
  return true;
}
