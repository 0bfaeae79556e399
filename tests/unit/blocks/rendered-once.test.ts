/**
 * Issue 13, cold render: the server renders a brand's header and footer once per brand view
 * (blocks/chrome/renderedOnce.tsx, provided by pages/_document.tsx) and writes that HTML into
 * every page with the view. The HTML must be exactly what rendering them on each page gives —
 * the logo's preload included, a character above U+00FF written as its reference — and a change
 * of view (another year, the apply page) must give the header and footer of that view.
 */
import { createElement as h, type ReactElement } from 'react';
import { renderToReadableStream } from 'react-dom/server.node';
import { describe, expect, it } from 'vitest';
import { Footer } from '../../../blocks/chrome/Footer';
import { Header } from '../../../blocks/chrome/Header';
import { RenderedOnceContext, type RenderOnce } from '../../../blocks/chrome/renderedOnce';
import { createRenderOnce } from '../../../blocks/chrome/renderOnceOnServer';
import { latin1Markup } from '../../../blocks/chrome/latin1Markup';
import { serialize } from 'node:v8';
import { buildCatalog, readSources } from '../../../engine/site/catalog';
import type { BrandView } from '../../../engine/site/model';
import { resolvePage } from '../../../engine/site/resolve';
import { BLOCK_SPECS } from '../../../blocks/generated/specs';

const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
const now = new Date('2026-11-24T12:00:00Z');

/** The server's way: React's stream renderer, read to the end. */
async function render(element: ReactElement, renderOnce?: RenderOnce): Promise<string> {
  const stream = await renderToReadableStream(renderOnce ? h(RenderedOnceContext.Provider, { value: renderOnce }, element) : element);
  await stream.allReady;
  return new Response(stream).text();
}
const chrome = (brand: BrandView, renderOnce?: RenderOnce) => Promise.all([render(h(Header, { brand }), renderOnce), render(h(Footer, { brand }), renderOnce)]);

/** A renderOnce that counts the renders it really does. */
function counted() {
  const inner = createRenderOnce();
  const calls: string[] = [];
  const renderOnce: RenderOnce = (sameFor, part, draw) =>
    inner(sameFor, part, () => {
      calls.push(part);
      return draw();
    });
  return { renderOnce, calls };
}

describe('header and footer rendered once per brand view', () => {
  for (const [id, loaded] of catalog.brands) {
    it(`${id}: the same HTML as rendering them on the page, on a page and on the apply page`, async () => {
      const { renderOnce } = counted();
      for (const path of ['/', loaded.brand.apply.path]) {
        const brand = resolvePage(catalog, id, path, now)!.brand;
        const [header, footer] = await chrome(brand);
        expect(header).toContain(`<link rel="preload" href="${brand.logo}" as="image"/>`);
        expect(header).toContain(`alt="${brand.name}"`);
        expect(footer).toContain(brand.footer.copyright);
        // first from the render, then from what it kept: the same markup, as Latin-1 (latin1Markup.ts)
        const once = [latin1Markup(header), latin1Markup(footer)];
        expect(await chrome(brand, renderOnce), `${id}${path}`).toEqual(once);
        expect(await chrome(brand, renderOnce), `${id}${path}`).toEqual(once);
      }
    });
  }

  it('the kept header and footer are one-byte strings, so a page built from them stays one (its characters above U+00FF as references)', () => {
    const renderOnce = createRenderOnce();
    const brand = resolvePage(catalog, 'ipaydayloans', '/', now)!.brand;
    // the brand's footer links to "Store Directory A\u2013Z", with an en dash
    expect(JSON.stringify(brand.footer)).toContain('A\u2013Z');
    for (const [id] of catalog.brands) {
      const view = resolvePage(catalog, id, '/', now)!.brand;
      for (const [part, draw] of [
        ['header', () => h(Header, { brand: view })],
        ['footer', () => h(Footer, { brand: view })],
      ] as const) {
        const html = renderOnce(view, `${part} test`, draw);
        expect(serialize(html)[2], `${id} ${part}: V8's serializer tags a one-byte string '"'`).toBe('"'.charCodeAt(0));
        if (id === 'ipaydayloans' && part === 'footer') expect(html).toContain('Store Directory A&#x2013;Z');
      }
    }
  });

  it('every page of a brand shares one frozen view, so the parts are rendered once for all of them', async () => {
    const paths = ['/', '/payday-loans', '/location/ca', '/location/ca/los-angeles', '/privacy'];
    const views = paths.map((p) => resolvePage(catalog, 'ipaydayloans', p, now)!.brand);
    for (const v of views) expect(v).toBe(views[0]);
    expect(Object.isFrozen(views[0]) && Object.isFrozen(views[0]!.footer)).toBe(true);
    const { renderOnce, calls } = counted();
    for (const v of views) await chrome(v, renderOnce);
    expect(calls.sort()).toEqual(['footer', 'header']);
  });

  it('a new year or the apply page is another view, with its own footer', async () => {
    const { renderOnce, calls } = counted();
    const thisYear = resolvePage(catalog, 'ipaydayloans', '/payday-loans', now)!.brand;
    const nextYear = resolvePage(catalog, 'ipaydayloans', '/payday-loans', new Date('2027-01-02T12:00:00Z'))!.brand;
    const apply = resolvePage(catalog, 'ipaydayloans', '/apply', now)!.brand;
    const titleApply = resolvePage(catalog, 'ustitleloans', '/apply-title-loans', now)!.brand;
    const titlePage = resolvePage(catalog, 'ustitleloans', '/title-loans', now)!.brand;
    expect(new Set([thisYear, nextYear, apply]).size).toBe(3);
    const [, footer2026] = await chrome(thisYear, renderOnce);
    const [, footer2027] = await chrome(nextYear, renderOnce);
    const [, applyFooter] = await chrome(apply, renderOnce);
    const [, titleFooter] = await chrome(titlePage, renderOnce);
    const [, titleApplyFooter] = await chrome(titleApply, renderOnce);
    expect(footer2026).toContain('© 2026 ');
    expect(footer2027).toContain('© 2027 ');
    expect(footer2027).not.toContain('© 2026 ');
    expect(applyFooter).toContain('href="/location/ca"');
    // ustitleloans hides the state links on its apply page
    expect(titleFooter).toContain('foot-states');
    expect(titleApplyFooter).not.toContain('foot-states');
    expect(calls).toHaveLength(10);
  });
});
