import { createElement, type HTMLAttributes, type ReactNode } from 'react';

/** The same object every render: React compares __html and never writes into a kept element. */
const NOTHING = { __html: '' };

/**
 * A static part of the page (site chrome, a block without interactive code). The server renders
 * it as usual. On the first load the browser gets no data for it (blocks/hydrationModel.ts) and
 * keeps the server's HTML as it is: React adopts the element and never renders inside it
 * (an element with dangerouslySetInnerHTML is not descended into while hydrating). After a
 * client-side navigation the page's data is complete and the part renders normally; the key
 * makes React replace the kept element rather than append to it.
 */
export function Kept({ as = 'div', kept, children, ...attrs }: { as?: 'div' | 'header' | 'footer'; kept: boolean; children?: ReactNode } & HTMLAttributes<HTMLElement>) {
  return kept
    ? createElement(as, { ...attrs, key: 'kept', suppressHydrationWarning: true, dangerouslySetInnerHTML: NOTHING })
    : createElement(as, { ...attrs, key: 'live' }, children);
}
