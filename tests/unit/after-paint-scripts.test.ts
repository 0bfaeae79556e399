import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { scriptsAfterPaint } from '../../blocks/chrome/afterPaintScripts';
import { AFTER_PAINT_SCRIPT, namedScripts } from '../../engine/browser/afterPaintScript.mjs';
import { INLINE_SCRIPT_HASHES, sha256Source } from '../../engine/site/csp.mjs';

const html = (elements: ReturnType<typeof scriptsAfterPaint>) => renderToStaticMarkup(createElement('head', null, ...elements));

describe("Next's chunk scripts started after the first paint", () => {
  it('names each deferred chunk by a preload the loader runs, in the order Next wrote them', () => {
    const out = scriptsAfterPaint([
      createElement('script', { key: 'a', src: '/_next/static/chunks/a.js', defer: true }),
      createElement('script', { key: 'b', src: '/_next/static/chunks/b.js', defer: true, crossOrigin: 'anonymous' }),
    ]);
    expect(html(out)).toBe(
      '<head><link rel="preload" as="script" href="/_next/static/chunks/a.js" data-ap=""/>' +
        '<link rel="preload" as="script" href="/_next/static/chunks/b.js" crossorigin="anonymous" data-ap=""/></head>',
    );
  });

  it('passes on the inline chunk-queue bootstrap, a nomodule polyfill, an async script and an empty entry as they are', () => {
    const bootstrap = createElement('script', { key: 'boot', dangerouslySetInnerHTML: { __html: 'self.q=[]' } });
    const polyfill = createElement('script', { key: 'p', src: '/_next/polyfills.js', defer: true, noModule: true });
    const asyncScript = createElement('script', { key: 'x', src: '/_next/x.js', async: true });
    const out = scriptsAfterPaint([bootstrap, polyfill, asyncScript, null]);
    expect(out).toEqual([bootstrap, polyfill, asyncScript, null]);
  });

  it('has a loader the content security policy allows by its hash', () => {
    expect(INLINE_SCRIPT_HASHES).toContain(sha256Source(AFTER_PAINT_SCRIPT));
  });

  // Every page carries the loader and one preload per chunk (seven on a brand page): their bytes
  // count against the page's HTML budget (scripts/bench/htmlSize.ts), 30 KB with no room left.
  it('costs a page at most 536 bytes of loader and 19 bytes a chunk more than the script tag it replaces', () => {
    const href = '/_next/static/chunks/a.js';
    const scriptTag = `<script src="${href}" defer=""></script>`;
    const [preload] = scriptsAfterPaint([createElement('script', { key: 'a', src: href, defer: true })]);
    const preloadTag = renderToStaticMarkup(preload as ReturnType<typeof createElement>);
    expect(Buffer.byteLength(`<script>${AFTER_PAINT_SCRIPT}</script>`)).toBeLessThanOrEqual(536);
    expect(preloadTag.length - scriptTag.length).toBeLessThanOrEqual(19);
  });

  it("reads the scripts a served page names for its first load, in order: script tags and the loader's preloads, no other preload", () => {
    const page =
      '<head><link rel="preload" href="/a.css" as="style"/><link rel="preload" as="script" href="/_next/a.js" data-ap=""/>' +
      '<script src="/_next/legacy.js"></script><link rel="preload" as="script" href="/elsewhere.js"/>' +
      '<link rel="preload" as="script" href="/_next/b.js" crossorigin="anonymous" data-ap=""/></head>';
    expect(namedScripts(page)).toEqual(['/_next/a.js', '/_next/legacy.js', '/_next/b.js']);
  });
});
