import { createElement, type HTMLAttributes, type ReactNode } from 'react';

/**
 * The server HTML of a kept part, read from its element only when React writes it. Hydrating, React
 * only checks that __html is not null (an element with it is not descended into): serializing every
 * kept part up front — most of the page's DOM — cost the hydration task its longest stretch of our
 * own work, for a copy used only when React renders the page afresh. Then React reads it while
 * rendering, before it removes the server's elements (that happens when it commits), so the
 * element is still there, as the server rendered it (kept elements are not written by React).
 */
class KeptHtml {
  private html: string | undefined;
  constructor(private readonly name: string) {}
  toString(): string {
    this.html ??= document.querySelector<HTMLElement>(`[data-kept="${CSS.escape(this.name)}"]`)?.innerHTML ?? '';
    return this.html;
  }
}

const NOTHING = { __html: '' };
const html = new Map<string, { __html: string }>();

function keptHtml(name: string): { __html: string } {
  if (typeof document === 'undefined') return NOTHING;
  // The same object every render: React compares __html and never writes into a kept element it has adopted.
  // A KeptHtml in place of the string: the DOM's innerHTML setter turns it into its text.
  if (!html.has(name)) html.set(name, { __html: new KeptHtml(name) as unknown as string });
  return html.get(name)!;
}

/**
 * A static part of the page (site chrome, a block without interactive code). The server renders
 * it as usual. On the first load the browser gets no data for it (blocks/hydrationModel.ts) and
 * keeps the server's HTML as it is: React adopts the element and never renders inside it
 * (an element with dangerouslySetInnerHTML is not descended into while hydrating). If React has
 * to render the page afresh instead of hydrating it (an interactive block that throws while
 * hydrating, a mismatch), the part's HTML is read from the server's element (KeptHtml above) and
 * written back rather than lost. After a client-side navigation the page's data is complete and
 * the part renders normally; the key makes React replace the kept element, not append to it.
 * `name`: unique in the page (data-kept), for that copy.
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
