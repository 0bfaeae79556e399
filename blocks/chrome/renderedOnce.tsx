import { createContext, createElement, useContext, type ReactNode } from 'react';

/**
 * The inner HTML of a part whose content depends on one object only, rendered once per object
 * (it halves a cold render's elements). Provided by pages/_document.tsx on the server only: there the header
 * and footer — half the elements of a page, the same on every page of a brand — are rendered
 * once per brand view (engine/site/brandView.ts hands out one view per brand, year and kind of page)
 * and written as HTML afterwards. In the browser there is no provider and they render as usual.
 */
export type RenderOnce = (sameFor: object, part: string, render: () => ReactNode) => string;
export const RenderedOnceContext = createContext<RenderOnce | null>(null);

/**
 * A div whose content `render` draws from `sameFor` alone (it must read nothing else: no
 * context, no state, no per-page prop). Pass the same object for the same content.
 */
export function RenderedOnce({ sameFor, part, className, render }: { sameFor: object; part: string; className: string; render: () => ReactNode }) {
  const renderOnce = useContext(RenderedOnceContext);
  return renderOnce
    ? createElement('div', { className, dangerouslySetInnerHTML: { __html: renderOnce(sameFor, part, render) } })
    : createElement('div', { className }, render());
}
