import { describe, expect, it } from 'vitest';
import { sameBytesPage } from '../../scripts/bench/sameBytes';

/** Our page as served, cut down: the reporter and JSON-LD in the head, a hoisted logo preload, our root, our chunks' preloads and their loader. */
const HTML =
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8" data-next-head=""/>' +
  '<title>Payday Loans Online | iPaydayLoans</title><meta name="description" content="How payday loans work."/>' +
  '<link rel="canonical" href="https://ipaydayloans.com/payday-loans"/><meta name="theme-color" content="#0b5394"/>' +
  '<link rel="preload" href="/_next/static/chunks/site.css" as="style"/><script data-brand="ipaydayloans">(function(w){w.__reportError=1})(window)</script>' +
  '<script type="application/ld+json">{"@type":"Organization"}</script><link rel="stylesheet" href="/_next/static/chunks/site.css" data-n-g=""/>' +
  '<link rel="preload" as="script" href="/_next/static/chunks/main.js" data-ap=""/><link rel="icon" href="/favicon.ico"/></head>' +
  '<body><link rel="preload" href="/logos/ipaydayloans.svg" as="image"/><div id="__next"><div class="flex min-h-screen flex-col">' +
  '<img src="/logos/ipaydayloans.svg" alt="iPaydayLoans"/><img src="https://cdn.example/x.png" alt=""/><a href="/apply">Apply</a>' +
  '<script>self.__kept=1</script></div></div><script id="__NEXT_DATA__" type="application/json">{"props":{}}</script><script>(function(d){})(document)</script></body></html>';

describe('our page as the same-bytes app serves it', () => {
  const page = sameBytesPage(HTML);

  it("keeps what our root held, without any script, for a container beside Next's own root", () => {
    expect(page.body).toBe(
      '<div class="flex min-h-screen flex-col"><img src="/logos/ipaydayloans.svg" alt="iPaydayLoans"/><img src="https://cdn.example/x.png" alt=""/><a href="/apply">Apply</a></div>',
    );
  });

  it("carries the title, description and theme colour, and the stylesheet and preload links (the body one too), not our scripts' preloads", () => {
    expect(page.title).toBe('Payday Loans Online | iPaydayLoans');
    expect(page.metas).toEqual([
      { name: 'description', content: 'How payday loans work.' },
      { name: 'theme-color', content: '#0b5394' },
    ]);
    expect(page.links).toEqual([
      { rel: 'preload', href: '/ours/site.css', as: 'style' },
      { rel: 'stylesheet', href: '/ours/site.css' },
      { rel: 'preload', href: '/logos/ipaydayloans.svg', as: 'image' },
    ]);
  });

  it("copies our stylesheet out of Next's /_next/ and the body's own files, never another host's or a link's target", () => {
    expect(page.assets).toEqual([
      ['/_next/static/chunks/site.css', 'ours/site.css'],
      ['/logos/ipaydayloans.svg', 'logos/ipaydayloans.svg'],
    ]);
  });

  it('leaves a body without our root as it is', () => {
    expect(sameBytesPage('<html><head></head><body><p>Hi</p><script>x()</script></body></html>').body).toBe('<p>Hi</p>');
  });
});
