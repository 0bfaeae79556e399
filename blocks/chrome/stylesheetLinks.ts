import { cloneElement, isValidElement, type JSX } from 'react';

type LinkProps = { rel?: unknown; as?: unknown; 'data-n-g'?: unknown };

/**
 * Next's stylesheet links without what repeats them: the `<link rel="preload" as="style">` Next
 * writes before each stylesheet (the stylesheet's own link is in the same head, within the first
 * bytes of the page, so the browser finds both at once: the preload only said its address twice),
 * and `data-n-g` (no code in the browser reads it; `data-n-p`, which Next's client does read to swap
 * a page's own CSS, is kept). Every byte is in every page's HTML (scripts/bench/htmlSize.ts).
 */
export function stylesheetLinks<T extends JSX.Element | null>(elements: T[] | null): (T | JSX.Element)[] | null {
  if (!elements) return elements;
  return elements.flatMap((element): (T | JSX.Element)[] => {
    if (!isValidElement<LinkProps>(element) || element.type !== 'link') return [element];
    const { rel, as } = element.props;
    if (rel === 'preload' && as === 'style') return [];
    if (rel === 'stylesheet' && 'data-n-g' in element.props) return [cloneElement(element, { 'data-n-g': undefined } as LinkProps)];
    return [element];
  });
}
