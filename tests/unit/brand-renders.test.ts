/**
 * Which rendered brand pages the page cache may keep: a page whose brand changed while it was
 * being rendered is refused (the next request renders it from the new document); every other
 * page is kept as before. Keys as Next hands them to the cache handler (its prefix, then the
 * page's internal path). Each test uses brands of its own: the notes are per process.
 */
import { describe, expect, it } from 'vitest';
import BoundedPageCache, { pageCacheStore } from '../../engine/cache/boundedPageCache.mjs';
import { RENDER_NOTE_MS, RENDERS_NOTED, brandChanged, pageChanged, renderBegins, renderIsCurrent, rendersNoted } from '../../engine/cache/brandRenders.mjs';

const key = (path: string) => `/route-cache/PAGES/0123abcd/$${path}`;

describe('a rendered brand page offered to the page cache', () => {
  it('is refused when its brand changed after the render began, and kept when the render began after the change', () => {
    renderBegins('/_brand/alpha/faqs');
    brandChanged('alpha');
    expect(renderIsCurrent(key('/_brand/alpha/faqs'))).toBe(false);
    renderBegins('/_brand/alpha/faqs');
    expect(renderIsCurrent(key('/_brand/alpha/faqs'))).toBe(true);
    // the brand's home page, and a page rendered with no note at all
    renderBegins('/_brand/alpha');
    brandChanged('alpha');
    expect(renderIsCurrent(key('/_brand/alpha'))).toBe(false);
    expect(renderIsCurrent(key('/_brand/alpha'))).toBe(true);
  });

  it('is kept when another brand changed meanwhile, even one whose id begins the same', () => {
    renderBegins('/_brand/beta/contact-us');
    renderBegins('/_brand/betaplus/contact-us');
    brandChanged('betaplus');
    brandChanged('gamma');
    expect(renderIsCurrent(key('/_brand/beta/contact-us'))).toBe(true);
    expect(renderIsCurrent(key('/_brand/betaplus/contact-us'))).toBe(false);
  });

  it('is kept when it is not a brand page', () => {
    brandChanged('delta');
    expect(renderIsCurrent('/route-cache/PAGES/0123abcd/$/_console/overview')).toBe(true);
  });

  it('of two overlapping renders around a change, neither is kept, whichever ends first; the next render is', () => {
    renderBegins('/_brand/epsilon/blog');
    brandChanged('epsilon');
    renderBegins('/_brand/epsilon/blog');
    expect(renderIsCurrent(key('/_brand/epsilon/blog'))).toBe(false);
    expect(renderIsCurrent(key('/_brand/epsilon/blog'))).toBe(false);
    renderBegins('/_brand/epsilon/blog');
    expect(renderIsCurrent(key('/_brand/epsilon/blog'))).toBe(true);
  });

  it('after a render that stored nothing: refused only while that render could still be under way', () => {
    const t0 = 1_000_000;
    renderBegins('/_brand/zeta/blog', t0); // failed: never offered to the cache
    brandChanged('zeta');
    renderBegins('/_brand/zeta/blog', t0 + 1000);
    expect(renderIsCurrent(key('/_brand/zeta/blog'), t0 + 1500)).toBe(false);
    // renders keep coming: once the failed one is past its time, the page is kept again
    renderBegins('/_brand/zeta/blog', t0 + RENDER_NOTE_MS + 1);
    expect(renderIsCurrent(key('/_brand/zeta/blog'), t0 + RENDER_NOTE_MS + 2)).toBe(true);
  });

  it('the notes stay bounded however many pages are rendered without being stored', () => {
    for (let i = 0; i < RENDERS_NOTED + 500; i++) renderBegins(`/_brand/eta/city-${i}`);
    expect(rendersNoted()).toBeLessThanOrEqual(RENDERS_NOTED);
    // the newest note is still there
    brandChanged('eta');
    expect(renderIsCurrent(key(`/_brand/eta/city-${RENDERS_NOTED + 499}`))).toBe(false);
  });
});

describe('a page the CMS webhook revalidates', () => {
  it('refuses the renders that read its content before, keeps the ones after, and leaves the brand’s other pages alone', () => {
    renderBegins('/_brand/theta/answers');
    renderBegins('/_brand/theta/faqs');
    pageChanged('/_brand/theta/answers');
    // the revalidation's own render overlaps the older one: neither is kept
    renderBegins('/_brand/theta/answers');
    expect(renderIsCurrent(key('/_brand/theta/answers'))).toBe(false);
    expect(renderIsCurrent(key('/_brand/theta/answers'))).toBe(false);
    expect(renderIsCurrent(key('/_brand/theta/faqs'))).toBe(true);
    renderBegins('/_brand/theta/answers');
    expect(renderIsCurrent(key('/_brand/theta/answers'))).toBe(true);
  });
});

describe('the single instance’s page cache handler, offered a page whose render is not current', () => {
  it('stores nothing and forgets what it held for the page, so the next request renders it again', async () => {
    const cache = new BoundedPageCache();
    const k = key('/_brand/iota/answers');
    const page = (text: string) => ({ kind: 'PAGES', html: `<h1>${text}</h1>`, pageData: { pageProps: {} }, headers: undefined, status: 200 });
    renderBegins('/_brand/iota/answers');
    await cache.set(k, page('as it was'), { cacheControl: { revalidate: 3600, expire: 31536000 } });
    expect(pageCacheStore()!.get(k)).not.toBeNull();
    // a stale revalidation under way when the webhook came: its page is refused, and the old one goes too
    renderBegins('/_brand/iota/answers');
    pageChanged('/_brand/iota/answers');
    await cache.set(k, page('read before the change'), { cacheControl: { revalidate: 3600, expire: 31536000 } });
    expect(pageCacheStore()!.get(k)).toBeNull();
  });
});
