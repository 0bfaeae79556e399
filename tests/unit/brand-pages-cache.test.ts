/**
 * A brand's cached pages dropped from the single instance's page cache when its document
 * changes: every page of that brand goes (so the replay, which serves only what the cache holds,
 * cannot answer with the old page), and no other brand's page — not even one whose id starts the same.
 */
import { describe, expect, it } from 'vitest';
import { createStore } from '../../engine/cache/boundedPageCache.mjs';

const page = (html: string) => ({ kind: 'PAGES', html, pageData: { pageProps: {} } });

describe('dropping one brand’s pages', () => {
  it('drops every page of the brand and keeps the others', () => {
    const store = createStore(16 * 1024 * 1024);
    const keys = ['/_brand/acme', '/_brand/acme/faqs', '/_brand/acme/location/tx', '/_brand/acmeplus/faqs', '/_brand/other', '/_brand/other/faqs'];
    for (const k of keys) store.set(k, page(`<h1>${k}</h1>`), { revalidate: 3600 });
    expect(store.dropUnder('/_brand/acme')).toBe(3);
    expect(keys.filter((k) => store.get(k))).toEqual(['/_brand/acmeplus/faqs', '/_brand/other', '/_brand/other/faqs']);
    expect(store.stats.entries).toBe(3);
  });
});
