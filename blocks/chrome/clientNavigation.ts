/**
 * Client-side navigation for plain <a href="/…"> links, through the router every Next page
 * already ships (next/link would add ~2.5 KiB gzip to every page for the same result here:
 * all brand pages share one page chunk). One delegated listener per page:
 * - click on a same-origin link, left button, no modifier keys, no target/download,
 *   not marked data-full-load → router.push (the proxy rewrites the data request per host);
 * - pointer or keyboard focus on such a link → router.prefetch, once per href, and the static
 *   blocks' chunk (blocks/staticBlocks.ts: the first load keeps their HTML without their code).
 * Anything else is left to the browser.
 */
import Router from 'next/router';
import { preloadStaticBlocks } from '../registry';

export function internalHref(anchor: HTMLAnchorElement, location: Location): string | undefined {
  if (anchor.target && anchor.target !== '_self') return undefined;
  if (anchor.hasAttribute('download') || anchor.dataset.fullLoad !== undefined) return undefined;
  const raw = anchor.getAttribute('href');
  if (!raw || raw.startsWith('#')) return undefined;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin) return undefined;
  if (url.pathname === location.pathname && url.search === location.search && url.hash) return undefined;
  return url.pathname + url.search + url.hash;
}

const anchorOf = (target: EventTarget | null): HTMLAnchorElement | null => (target instanceof Element ? target.closest('a[href]') : null);

export function installClientNavigation(): () => void {
  const prefetched = new Set<string>();
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = anchorOf(event.target);
    const href = anchor && internalHref(anchor, window.location);
    if (!href) return;
    event.preventDefault();
    void Router.push(href);
  };
  const onIntent = (event: Event) => {
    const anchor = anchorOf(event.target);
    const href = anchor && internalHref(anchor, window.location);
    if (!href || prefetched.has(href)) return;
    if (!prefetched.size) preloadStaticBlocks().catch(() => undefined);
    prefetched.add(href);
    Router.prefetch(href).catch(() => prefetched.delete(href));
  };
  document.addEventListener('click', onClick);
  document.addEventListener('pointerover', onIntent, { passive: true });
  document.addEventListener('focusin', onIntent);
  return () => {
    document.removeEventListener('click', onClick);
    document.removeEventListener('pointerover', onIntent);
    document.removeEventListener('focusin', onIntent);
  };
}
