/**
 * Client-side navigation for plain <a href="/…"> links, through the router every Next page
 * already ships (next/link would add ~2.5 KiB gzip to every page for the same result here:
 * all brand pages share one page chunk). One delegated listener per page:
 * - click on a same-origin link, left button, no modifier keys, no target/download,
 *   not marked data-full-load → pushPage (./navigate);
 * - pointer (a touch too: it starts with pointerover) or keyboard focus on such a link →
 *   prefetchPage, once per href.
 * Anything else is left to the browser. The router calls (./navigate, in ./afterFirstInput's chunk) load on the first such
 * intent, not with the page: a visitor who follows no link never fetches them. A click that
 * comes before they have arrived waits for them (a few hundred bytes); should they fail to load,
 * the browser follows the link.
 */
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
  let navigate: Promise<typeof import('./afterFirstInput')> | undefined;
  const load = () => (navigate ??= import('./afterFirstInput'));
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = anchorOf(event.target);
    const href = anchor && internalHref(anchor, window.location);
    if (!href) return;
    event.preventDefault();
    load().then(
      (m) => m.pushPage(href),
      () => window.location.assign(href),
    );
  };
  const onIntent = (event: Event) => {
    const anchor = anchorOf(event.target);
    const href = anchor && internalHref(anchor, window.location);
    if (!href || prefetched.has(href)) return;
    prefetched.add(href);
    load()
      .then((m) => m.prefetchPage(href))
      .catch(() => prefetched.delete(href));
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
