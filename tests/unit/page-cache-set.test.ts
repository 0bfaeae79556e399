/**
 * Storing a rendered page: Next's own IncrementalCache (the class the pages runtime uses, from
 * the installed next) in front of the single-instance handler. The page reaches the store as Next
 * rendered it, and Next no longer serialises the whole entry (HTML and props) to measure it on
 * every render; the entry serialises as before once stored.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageCacheStore } from '../../engine/cache/boundedPageCache.mjs';
import { skipPageSizeCheck } from '../../engine/cache/pageSizeCheck.mjs';
import { BRAND_ROUTE as route, nextIncrementalCache as nextCache } from '../support/nextIncrementalCache';

const page = (n: number) => ({
  kind: 'PAGES',
  html: `<main><h1>Payday loans in city ${n}</h1>${'<p>Borrow up to $500 “today”.</p>'.repeat(800)}</main>`,
  pageData: { pageProps: { model: { path: `/city-${n}`, blocks: [{ type: 'hero', data: { title: `City ${n}` } }] } } },
  headers: undefined,
  status: 200,
});

afterEach(() => vi.restoreAllMocks());

describe("a rendered page stored through Next's IncrementalCache", () => {
  it('reaches the page cache as rendered, without Next serialising the whole entry', async () => {
    const cache = nextCache();
    expect(skipPageSizeCheck(cache)).toBe(true);
    const data = page(1);
    const stringify = vi.spyOn(JSON, 'stringify');
    await cache.set('/_brand/x/city-1', data as never, { route, cacheControl: { revalidate: 3600, expire: 31536000 }, isFallback: false } as never);
    // Next still asks for the entry's JSON, and gets a one-character stand-in instead of ~30 KB
    const measured = stringify.mock.calls.flatMap(([value], i) => (value === data ? [String(stringify.mock.results[i]!.value)] : []));
    expect(measured).toEqual(['0']);
    stringify.mockRestore();
    const key = pageCacheStore()!.keyOf('/_brand/x/city-1')!;
    const stored = pageCacheStore()!.get(key) as { value: { html: Buffer; pageData: unknown } };
    expect(Buffer.from(stored.value.html).toString('utf8')).toBe(data.html);
    expect(stored.value.pageData).toEqual(data.pageData);
    // nothing of the measuring stays on the entry Next keeps
    expect(JSON.parse(JSON.stringify(data))).toEqual(page(1));
    expect(Object.keys(data)).toEqual(Object.keys(page(1)));
  });

  it('patches the class once, and a value without the method is left alone', () => {
    const cache = nextCache();
    const set = Object.getPrototypeOf(cache).set;
    skipPageSizeCheck(cache);
    expect(Object.getPrototypeOf(nextCache()).set).toBe(set);
    expect(skipPageSizeCheck({})).toBe(false);
    expect(skipPageSizeCheck(undefined)).toBe(false);
  });
});
