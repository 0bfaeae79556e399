import { describe, expect, it } from 'vitest';
import { withoutScripts } from '../../scripts/bench/lighthouse';

describe('a page without its scripts (what the bytes alone cost in a Lighthouse A/B)', () => {
  const page = [
    '<!DOCTYPE html><html><head>',
    '<link rel="preload" href="/_next/static/chunks/a.css" as="style"/>',
    '<link rel="stylesheet" href="/_next/static/chunks/a.css"/>',
    '<link rel="preload" href="/_next/static/chunks/main.js" as="script"/>',
    '<link rel="modulepreload" href="/m.js"/>',
    '<link rel="preload" href="/logos/x.svg" as="image"/>',
    '<script src="/_next/static/chunks/main.js" defer=""></script>',
    '<script type="module" src="/m.js"></script>',
    '<script type="application/ld+json">{"@type":"FAQPage"}</script>',
    '</head><body><main><h1>Payday loans</h1><p>Text</p></main>',
    '<script data-brand="x">window.x = "</p>";</script>',
    '<script id="__NEXT_DATA__" type="application/json">{"props":{}}</script>',
    '<SCRIPT TYPE="text/javascript">alert(1)</SCRIPT >',
    '</body></html>',
  ].join('');
  const out = withoutScripts(page);

  it('takes out every script a browser would run, inline or external, in any case', () => {
    expect(out).not.toMatch(/main\.js"\s+defer|\/m\.js"><\/script>|window\.x|alert\(1\)/);
    expect(out.match(/<script/gi)).toHaveLength(2);
  });

  it('takes out script preloads and module preloads, keeps the stylesheet and image preloads', () => {
    expect(out).not.toContain('as="script"');
    expect(out).not.toContain('modulepreload');
    expect(out).toContain('<link rel="preload" href="/_next/static/chunks/a.css" as="style"/>');
    expect(out).toContain('<link rel="stylesheet" href="/_next/static/chunks/a.css"/>');
    expect(out).toContain('<link rel="preload" href="/logos/x.svg" as="image"/>');
  });

  it('keeps the data blocks and the markup as they were', () => {
    expect(out).toContain('<script type="application/ld+json">{"@type":"FAQPage"}</script>');
    expect(out).toContain('<script id="__NEXT_DATA__" type="application/json">{"props":{}}</script>');
    expect(out).toContain('<main><h1>Payday loans</h1><p>Text</p></main>');
  });

  it('leaves a page without scripts unchanged', () => {
    const plain = '<html><head><link rel="stylesheet" href="/a.css"/></head><body><p>Hi</p></body></html>';
    expect(withoutScripts(plain)).toBe(plain);
  });
});
