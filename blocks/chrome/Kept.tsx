import { createElement, type HTMLAttributes, type ReactNode } from 'react';

/** The server HTML of every kept part, read once from the document before anything can replace it. */
let snapshots: Map<string, string> | undefined;
const NOTHING = { __html: '' };
const html = new Map<string, { __html: string }>();

function keptHtml(name: string): { __html: string } {
  if (typeof document === 'undefined') return NOTHING;
  snapshots ??= new Map([...document.querySelectorAll<HTMLElement>('[data-kept]')].map((el) => [el.dataset.kept!, el.innerHTML]));
  // The same object every render: React compares __html and never writes into a kept element it has adopted.
  if (!html.has(name)) html.set(name, { __html: snapshots.get(name) ?? '' });
  return html.get(name)!;
}

/**
 * A static part of the page (site chrome, a block without interactive code). The server renders
 * it as usual. On the first load the browser gets no data for it (blocks/hydrationModel.ts) and
 * keeps the server's HTML as it is: React adopts the element and never renders inside it
 * (an element with dangerouslySetInnerHTML is not descended into while hydrating). Its HTML is
 * also read once from the document, so that if React has to render the page afresh instead of
 * hydrating it (an interactive block that throws while hydrating, a mismatch) the part is
 * written back rather than lost. After a client-side navigation the page's data is complete and
 * the part renders normally; the key makes React replace the kept element, not append to it.
 * `name`: unique in the page (data-kept), for that snapshot.
 */
export function Kept({
  as = 'div',
  name,
  kept,
  children,
  ...attrs
}: { as?: 'div' | 'header' | 'footer'; name: string; kept: boolean; children?: ReactNode } & HTMLAttributes<HTMLElement>) {
  return kept
    ? createElement(as, { ...attrs, 'data-kept': name, key: 'kept', suppressHydrationWarning: true, dangerouslySetInnerHTML: keptHtml(name) })
    : createElement(as, { ...attrs, 'data-kept': name, key: 'live' }, children);
}
