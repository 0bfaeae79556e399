/**
 * A logo uploaded in the studio: a hostile SVG is stored with nothing that could run or reach
 * outside the file (script, event handlers, foreignObject, external references, javascript: links,
 * style sheets, entities), a clean one keeps its drawing; sizes are capped; a PNG must be one.
 */
import { describe, expect, it } from 'vitest';
import { checkLogo, LOGO_LIMIT, sanitiseSvg } from '../../engine/console/logoUpload';

const clean = (text: string): string => {
  const r = sanitiseSvg(text);
  if ('problem' in r) throw new Error(r.problem);
  return r.svg;
};
const SVG = (inner: string, attrs = '') => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 40"${attrs}>${inner}</svg>`;

describe('sanitiseSvg', () => {
  it('keeps a plain logo drawing: shapes, text, gradients and references within the file', () => {
    const logo = SVG(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#0b5394"/></linearGradient></defs><rect width="40" height="40" fill="url(#g)"/><text x="48" y="28" font-size="22">Acme</text><use href="#g"/>',
    );
    const out = clean(logo);
    for (const kept of ['viewBox="0 0 200 40"', '<linearGradient id="g">', 'fill="url(#g)"', '>Acme</text>', 'href="#g"']) expect(out).toContain(kept);
  });

  const hostile: [string, string, RegExp][] = [
    ['a script element', SVG('<script>alert(1)</script><rect width="1" height="1"/>'), /script|alert/i],
    ['a script with a CDATA section', SVG('<script><![CDATA[alert(1)]]></script>'), /script|alert/i],
    ['an event handler', SVG('<rect width="1" height="1" onload="alert(1)" onclick="alert(2)"/>', ' onload="alert(3)"'), /on(load|click)|alert/i],
    [
      'a foreignObject with HTML',
      SVG('<foreignObject><iframe src="https://evil.example"></iframe><body onload="x()"/></foreignObject>'),
      /foreignObject|iframe|evil|onload/i,
    ],
    ['a javascript: link', SVG('<a href="javascript:alert(1)"><text>x</text></a>'), /javascript|<a/i],
    ['an external image', SVG('<image href="https://evil.example/track.png" width="1" height="1"/>'), /image|evil/i],
    ['an external use reference', SVG('<use xlink:href="https://evil.example/sprite.svg#a"/>'), /evil/i],
    ['a paint server in another file', SVG('<rect fill="url(https://evil.example/p.svg#g)" width="1" height="1"/>'), /evil/i],
    [
      'a style sheet with an import',
      SVG('<style>@import url(https://evil.example/x.css); rect{fill:red}</style><rect width="1" height="1"/>'),
      /style|evil|@import/i,
    ],
    ['an inline style with a url', SVG('<rect style="fill:url(https://evil.example/x)" width="1" height="1"/>'), /style|evil/i],
    ['an animation that sets a link', SVG('<a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a>'), /set|javascript/i],
    ['a data: URL', SVG('<use href="data:image/svg+xml;base64,PHN2Zz48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+"/>'), /data:/i],
    ['another namespace declared as SVG', SVG('<rect width="1" height="1"/>', ' xmlns:h="http://www.w3.org/1999/xhtml"'), /xhtml/i],
  ];
  it("gives the root SVG's namespace when the file declared none or another, so the served image draws", () => {
    expect(clean('<svg viewBox="0 0 2 2"><rect width="1" height="1"/></svg>')).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 2 2">/);
    expect(clean('<svg xmlns="http://example.org/not-svg"><rect width="1" height="1"/></svg>')).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg">/);
    expect(clean(SVG(''))).toBe(SVG(''));
  });

  for (const [what, svg, gone] of hostile)
    it(`stores nothing of ${what}`, () => {
      const out = clean(svg);
      expect(out).not.toMatch(gone);
      expect(out.startsWith('<svg')).toBe(true);
    });

  it('refuses entity declarations (billion laughs) and what is not an SVG', () => {
    expect(sanitiseSvg('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>')).toEqual({
      problem: expect.stringMatching(/entities/),
    });
    expect(sanitiseSvg('<html><body>hi</body></html>')).toEqual({ problem: expect.stringMatching(/not an SVG/) });
    expect(sanitiseSvg('<script>alert(1)</script>')).toEqual({ problem: expect.stringMatching(/not an SVG/) });
    // two drawings side by side are no SVG document: served alone, the image would not show
    expect(sanitiseSvg(`${SVG('<rect width="1" height="1"/>')}${SVG('<rect width="2" height="2"/>')}`)).toEqual({
      problem: expect.stringMatching(/one <svg> element/),
    });
    // a drawing nested in another is one image
    expect(clean(SVG(SVG('<rect width="1" height="1"/>')))).toMatch(/^<svg[^>]*><svg[^>]*><rect[^>]*\/><\/svg><\/svg>$/);
  });
});

describe('checkLogo', () => {
  it('caps the size, names the stored file by its content, and takes only real PNGs', () => {
    const big = Buffer.from(SVG(`<desc>${'x'.repeat(LOGO_LIMIT)}</desc>`));
    expect(checkLogo(big, 'image/svg+xml')).toMatchObject({ ok: false, problem: expect.stringMatching(/at most 256 KB/) });
    const svg = checkLogo(Buffer.from(SVG('<rect width="1" height="1"/><script>x</script>')), 'image/svg+xml');
    expect(svg).toMatchObject({ ok: true, type: 'image/svg+xml', name: expect.stringMatching(/^[0-9a-f]{32}\.svg$/) });
    expect(checkLogo(Buffer.from('GIF89a....'), 'image/png')).toMatchObject({ ok: false, problem: 'this is not a PNG image' });
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from('IHDR'), Buffer.alloc(17)]);
    expect(checkLogo(png, 'image/png')).toMatchObject({ ok: true, name: expect.stringMatching(/\.png$/) });
    expect(checkLogo(png, 'image/gif')).toMatchObject({ ok: false, problem: expect.stringMatching(/image\/svg\+xml or image\/png/) });
  });
});
