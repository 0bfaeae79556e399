/**
 * The server's side of renderedOnce.tsx (pages/_document.tsx provides it; never imported by
 * browser code: it brings react-dom/server). A part is rendered the first time it is asked for
 * with an object and kept while that object lives: the brand views live as long as the catalog
 * that made them, so a brand file edited under `npm run dev` gives new views, and its pages the
 * new header and footer.
 *
 * React writes the resources a render asks for (the logo's image preload) before its HTML; the
 * page's own render asks for them itself (Header.tsx), so here they are left out.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { latin1Markup } from './latin1Markup';
import type { RenderOnce } from './renderedOnce';

const LEADING_LINKS = /^(?:<link [^>]*\/>)+/;

export function createRenderOnce(): RenderOnce {
  const rendered = new WeakMap<object, Map<string, string>>();
  return (sameFor, part, render) => {
    let parts = rendered.get(sameFor);
    if (!parts) rendered.set(sameFor, (parts = new Map()));
    let html = parts.get(part);
    // as Latin-1 markup: one character above U+00FF in a header or footer would make every page of the brand a two-byte string (latin1Markup.ts)
    if (html === undefined) parts.set(part, (html = latin1Markup(renderToStaticMarkup(<>{render()}</>).replace(LEADING_LINKS, ''))));
    return html;
  };
}
