/**
 * The brand 404 page shows the brand the front door chose: the brand named by the URL it handed
 * Next, found once, not looked up again from the host; a path handed to Next untouched (its
 * own files, the API) shows the host's brand by the same lookup.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { consoleHostsOf, decide, type Door } from '../../engine/frontDoor/frontDoor';
import { notFoundView } from '../../engine/site/notFoundPage';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const { brands, layouts } = readSources({ extraDir: '' });
const catalog = buildCatalog(brands, layouts, BLOCK_SPECS);
const door: Door = { catalog, previewModeId: null, consoleHosts: consoleHostsOf({}), trustForwardedHost: false, production: true, env: {} };

/** The 404 page a request gets: Next is handed the URL the front door decided, with the request's Host header. */
async function notFoundPageOf(host: string, target: string) {
  const d = decide({ method: 'GET', target, host }, door);
  const url = 'url' in d ? d.url : target;
  return notFoundView({ url, host }, catalog);
}
const brandOf = (view: Awaited<ReturnType<typeof notFoundView>>) => (view.kind === 'brand' ? view.model.brand.id : view.kind);

describe('the brand 404 page', () => {
  it.each([
    ['ipaydayloans.localhost', '/no-such-page', 'ipaydayloans'],
    ['www.ipaydayloans.com', '/No-Such-Page', 'ipaydayloans'],
    // a blog host's non-blog path: the blog's brand
    ['blog.ipaydayloans.com', '/payday-loans', 'ipaydayloans'],
    // a page the brand page itself finds missing (a draft): the brand of the page handed to Next
    ['ipaydayloans.localhost', '/blog/payday-loans/no-such-article', 'ipaydayloans'],
    ['usbadcreditloans.localhost', '/no-such-page', 'usbadcreditloans'],
    // Next's own files and the API, handed over untouched: the host's brand
    ['usbadcreditloans.localhost', '/api/no-such-route', 'usbadcreditloans'],
    ['usbadcreditloans.localhost', '/logos/no-such-logo.svg', 'usbadcreditloans'],
    ['nobody.example', '/api/no-such-route', 'plain'],
  ])('%s%s → %s', async (host, target, expected) => {
    expect(brandOf(await notFoundPageOf(host, target))).toBe(expected);
  });

  it('the brand Next was handed wins over the Host header (the front door decided it once)', async () => {
    const view = await notFoundView({ url: '/_brand/usbadcreditloans/_not-found', host: 'ipaydayloans.localhost' }, catalog);
    expect(brandOf(view)).toBe('usbadcreditloans');
  });

  it('a brand that is neither in the catalog nor broken has no brand page: the plain 404', async () => {
    expect(brandOf(await notFoundView({ url: '/_brand/no-such-brand/x', host: 'nobody.example' }, catalog))).toBe('plain');
  });

  it("on a blog host, the 404 page's links lead to the brand's primary host (the blog host has only /blog pages)", async () => {
    for (const target of ['/payday-loans', '/blog/payday-loans/no-such-article']) {
      const view = await notFoundPageOf('blog.ipaydayloans.com', target);
      if (view.kind !== 'brand') throw new Error(`${target}: no brand page`);
      const hrefs = [...JSON.stringify(view.model).matchAll(/"(?:href|applyHref|homeHref)":"([^"]*)"/g)].map((m) => m[1]!);
      expect(hrefs.length).toBeGreaterThan(10);
      const local = hrefs.filter((h) => h.startsWith('/') && !h.startsWith('/blog'));
      expect(local, target).toEqual([]);
    }
    // the same brand's 404 page on its primary host keeps its own links
    const main = await notFoundPageOf('ipaydayloans.com', '/no-such-page');
    expect(main.kind === 'brand' && main.model.brand.homeHref).toBe('/');
  });
});
