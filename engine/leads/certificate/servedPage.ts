/**
 * The SHA-256 of the form page's HTML exactly as we served it: the bytes the page cache
 * (engine/cache/boundedPageCache.mjs) holds for the page, which are the bytes every visitor of that
 * version got — a miss is sent as the stored bytes, a hit through Next or replayed by server.mjs
 * sends them again. Read on our side at submit, never taken from the browser, so the browser
 * cannot claim a page it was not shown; anyone can check it by fetching the page while that
 * version is live and hashing the body (decompressed).
 *
 * Left out (null in the certificate) when we cannot vouch for it: with REDIS_URL (the page cache
 * is in Redis, not in this process), when the page is no longer cached, or when the cached version
 * was stored after the borrower's page loaded (a re-render in between: the borrower may have got
 * the version before it).
 */
import { createHash } from 'node:crypto';
import { pageCacheStore } from '../../cache/boundedPageCache.mjs';
import { internalPath } from '../../browser/requestPath';

export interface ServedPage {
  sha256: string;
  /** when that version of the page was stored (rendered) */
  cachedAt: string;
}

/**
 * The browser's page-load time is its navigation start, before the request reached us; a page
 * rendered for that very request is stored a moment later. A version stored more than this long
 * after the page load is a later version.
 */
export const RENDER_ALLOWANCE_MS = 30_000;

type CacheEntry = { value?: { kind?: string; html?: string | Buffer }; lastModified?: number };
type PageStore = { keyOf(path: string): string | undefined; get(key: string): CacheEntry | null };

/** One hash per stored version: an entry is a new object each time Next stores the page. */
const hashes = new WeakMap<object, string>();

export function servedPage(brandId: string, path: string, loadedAt: Date, pageStore: () => PageStore | undefined = pageCacheStore): ServedPage | undefined {
  const store = pageStore();
  const key = store?.keyOf(internalPath(brandId, path));
  const entry = key === undefined ? undefined : store?.get(key);
  const html = entry?.value?.kind === 'PAGES' ? entry.value.html : undefined;
  if (!entry || html === undefined || typeof entry.lastModified !== 'number') return undefined;
  if (entry.lastModified > loadedAt.getTime() + RENDER_ALLOWANCE_MS) return undefined;
  let sha256 = hashes.get(entry);
  if (sha256 === undefined) hashes.set(entry, (sha256 = createHash('sha256').update(html).digest('hex')));
  return { sha256, cachedAt: new Date(entry.lastModified).toISOString() };
}
