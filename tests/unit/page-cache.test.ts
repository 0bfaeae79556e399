/** The single-instance page cache (engine/cache/boundedPageCache.mjs): LRU by bytes, notFound never stored. */
import { describe, expect, it } from 'vitest';
import { createStore, entryBytes } from '../../engine/cache/boundedPageCache.mjs';

const page = (kb: number) => ({
  kind: 'PAGES',
  html: `<html><script id="__NEXT_DATA__" type="application/json">${'d'.repeat(kb * 512)}</script>${'x'.repeat(kb * 512)}</html>`,
  pageData: { d: 'd'.repeat(kb * 512) },
});

describe('bounded page cache', () => {
  it('counts the HTML and its page data', () => {
    const p = page(10);
    expect(entryBytes(p)).toBeGreaterThan(p.html.length);
    expect(entryBytes(p)).toBeLessThan(p.html.length * 2);
    expect(entryBytes(null)).toBe(0);
  });

  it("counts a page's own data, not the brand view every page of the brand shares", () => {
    const shared = Object.freeze({ nav: 'n'.repeat(10_000) });
    const withBrand = (brand: object) => ({
      kind: 'PAGES',
      html: '<html></html>',
      pageData: { pageProps: { model: { brand, blocks: 'b'.repeat(4_000) } } },
    });
    const ownData = entryBytes(withBrand(shared));
    expect(ownData).toBeGreaterThan(4_000);
    expect(ownData).toBeLessThan(5_000);
    // the same page with a brand object of its own (the blog host's links): that object counts
    const ownBrand = entryBytes(withBrand({ nav: 'n'.repeat(10_000) }));
    expect(ownBrand - ownData).toBeGreaterThan(10_000);
    // the HTML by its UTF-8 bytes
    expect(entryBytes({ ...withBrand(shared), html: 'é'.repeat(100) }) - ownData).toBe(200 - '<html></html>'.length);
  });

  it('keeps the total under its bound, dropping the least recently used first', () => {
    const store = createStore(100 * 1024);
    for (let i = 0; i < 10; i++) store.set(`/p${i}`, page(10), { revalidate: 60 });
    expect(store.stats.bytes).toBeLessThanOrEqual(100 * 1024);
    expect(store.get('/p0')).toBeNull();
    expect(store.get('/p9')?.value.kind).toBe('PAGES');
    expect(store.stats.evicted).toBeGreaterThan(0);
    // reading /p5 makes it recent: the next page pushes out /p6 … not /p5
    const kept = [5, 6, 7, 8, 9].filter((i) => store.get(`/p${i}`));
    store.get('/p5');
    store.set('/new', page(10), undefined);
    expect(store.get('/p5')).not.toBeNull();
    expect(kept.length).toBeGreaterThan(1);
  });

  it('a page read over and over (replayed hits) stays the most recent: the pages not read go first, in the order they were used', () => {
    const store = createStore(65 * 1024); // four pages of ~15 KB
    for (let i = 0; i < 4; i++) store.set(`/p${i}`, page(10), { revalidate: 60 });
    for (let n = 0; n < 1000; n++) store.get('/p0');
    store.set('/p4', page(10), { revalidate: 60 });
    expect(store.get('/p1')).toBeNull();
    store.get('/p2');
    for (let n = 0; n < 1000; n++) store.get('/p0');
    store.set('/p5', page(10), { revalidate: 60 });
    expect(store.get('/p3')).toBeNull();
    expect([0, 2, 4, 5].map((i) => store.get(`/p${i}`) !== null)).toEqual([true, true, true, true]);
  });

  it('never stores a notFound (null) result, and forgets the page it replaces', () => {
    const store = createStore(1024 * 1024);
    store.set('/a', page(1), undefined);
    store.set('/a', null, undefined);
    store.set('/b', null, undefined);
    expect(store.get('/a')).toBeNull();
    expect(store.stats).toMatchObject({ entries: 0, bytes: 0, notFoundSkipped: 2 });
  });

  it('does not keep a page larger than the whole bound', () => {
    const store = createStore(4 * 1024);
    store.set('/huge', page(10), undefined);
    expect(store.stats.entries).toBe(0);
  });

  it('returns what it stored, the HTML as bytes (cheaper to send), with the time and the lifetime', () => {
    const store = createStore(1024 * 1024);
    const value = page(1);
    store.set('/x', value, { revalidate: 3600, expire: 31536000 });
    const entry = store.get('/x');
    expect(Buffer.isBuffer(entry.value.html)).toBe(true);
    expect(entry.value.html.toString('utf8')).toBe(value.html);
    expect(entry.value.pageData).toBe(value.pageData);
    expect(entry.cacheControl).toEqual({ revalidate: 3600, expire: 31536000 });
    expect(Math.abs(entry.lastModified - Date.now())).toBeLessThan(1000);
  });

  it('hands the bytes of a page it has just stored to the response of that page (same HTML only, once), so the HTML is not encoded twice', () => {
    const store = createStore(1024 * 1024);
    const value = page(1);
    store.set('/x', value, { revalidate: 3600, expire: 31536000 });
    const kept = store.get('/x').value.html;
    // other HTML under the key (a newer render) is not answered with these bytes
    expect(store.storedBytesOf('/x', value.html + ' ')).toBeUndefined();
    store.set('/x', value, { revalidate: 3600, expire: 31536000 });
    const bytes = store.storedBytesOf('/x', value.html);
    expect(bytes).toBe(store.get('/x').value.html);
    expect(bytes?.toString('utf8')).toBe(value.html);
    expect(kept.equals(bytes!)).toBe(true);
    expect(store.storedBytesOf('/x', value.html)).toBeUndefined();
    // a page that is never sent this way does not stay at hand
    for (let i = 0; i < 40; i++) store.set(`/p${i}`, page(1), { revalidate: 3600, expire: 31536000 });
    expect(store.storedBytesOf('/p0', store.get('/p0').value.html.toString('utf8'))).toBeUndefined();
    expect(store.storedBytesOf('/p39', store.get('/p39').value.html.toString('utf8'))).toBe(store.get('/p39').value.html);
  });
});
