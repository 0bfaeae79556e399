/**
 * The header and footer a server renders once per brand view are written as Latin-1 markup
 * (blocks/chrome/latin1Markup.ts): a character above U+00FF becomes a character reference, so the
 * page's HTML stays a one-byte string in V8 (half the memory, UTF-8 encoding ~3x faster) and the
 * browser still reads the character itself.
 */
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { latin1Markup } from '../../../blocks/chrome/latin1Markup';

/** How V8 holds the string: its serializer writes a one-byte string with the tag '"', a two-byte one with 'c'. */
const oneByte = (s: string) => serialize(s)[2] === '"'.charCodeAt(0);

describe('Latin-1 markup', () => {
  it('writes a character above U+00FF in text and attribute values as a reference, and holds the result at one byte a character', () => {
    const html = '<a href="/directory/a" title="A\u2013Z \u2248 all">Store Directory A\u2013Z</a><p>caf\u00e9 \u00a9 2026</p>';
    expect(oneByte(html)).toBe(false);
    const out = latin1Markup(html);
    expect(out).toBe('<a href="/directory/a" title="A&#x2013;Z &#x2248; all">Store Directory A&#x2013;Z</a><p>caf\u00e9 \u00a9 2026</p>');
    expect(oneByte(out)).toBe(true);
  });

  it('writes a character outside the basic plane as one reference, not two halves', () => {
    expect(latin1Markup('<span>\u{1F600}</span>')).toBe('<span>&#x1f600;</span>');
  });

  it('leaves the contents of scripts and styles as they are (a reference would be read literally there)', () => {
    const script = '<script type="application/ld+json">{"name":"A\u2013Z"}</script>';
    const style = '<style>.q::before{content:"\u201c"}</style>';
    expect(latin1Markup(`<p>A\u2013Z</p>${script}<i>\u2026</i>${style}<b>\u2013</b>`)).toBe(`<p>A&#x2013;Z</p>${script}<i>&#x2026;</i>${style}<b>&#x2013;</b>`);
  });

  it('returns markup that is already Latin-1 unchanged', () => {
    const html = '<p>caf\u00e9 &amp; \u00a9</p>';
    expect(latin1Markup(html)).toBe(html);
    expect(oneByte(latin1Markup(html))).toBe(true);
  });
});
