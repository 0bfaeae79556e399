/**
 * Next's IncrementalCache.set serialises a whole page entry to measure it unless the page cache
 * handler has stopped it (engine/cache/pageSizeCheck.mjs). The handler used to stop it only when
 * Next asked it for an entry (`get`); server.mjs's cold path stores the misses it renders itself
 * without any `get`, and with the start's warm-up it renders every page from the first, so the
 * measuring came back on every render. Storing is enough now.
 */
import { describe, expect, it, vi } from 'vitest';
import { BRAND_ROUTE as route, nextIncrementalCache } from '../support/nextIncrementalCache';

const page = (n: number) => ({
  kind: 'PAGES',
  html: `<main><h1>Payday loans in city ${n}</h1>${'<p>Borrow up to $500 today.</p>'.repeat(800)}</main>`,
  pageData: { pageProps: { model: { path: `/city-${n}` } } },
  headers: undefined,
  status: 200,
});

describe("pages stored through Next's IncrementalCache that Next never asked the handler for", () => {
  it('are not serialised to be measured after the first one', async () => {
    const cache = nextIncrementalCache();
    // where Next's server keeps the IncrementalCache it made for the request (base-server.js)
    (globalThis as { __incrementalCache?: unknown }).__incrementalCache = cache;
    const ctx = { route, cacheControl: { revalidate: 3600, expire: 31536000 }, isFallback: false } as never;
    await cache.set('/_brand/x/city-1', page(1) as never, ctx);
    const stringify = vi.spyOn(JSON, 'stringify');
    const second = page(2);
    await cache.set('/_brand/x/city-2', second as never, ctx);
    const measured = stringify.mock.calls.flatMap(([value], i) => (value === second ? [String(stringify.mock.results[i]!.value)] : []));
    stringify.mockRestore();
    expect(measured).toEqual(['0']);
  });
});
