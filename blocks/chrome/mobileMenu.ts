/**
 * The mobile menu (a <details> in Header.tsx), loaded on its first opening: page scroll is
 * locked while it is open; Escape closes it and puts focus back on its button; it closes on a
 * tap outside its panel (the dimmed page), when focus moves out of it, when a route change
 * starts, and when a resize (debounced 240 ms) reaches the desktop layout. Rules in engine/browser/widgets/layout.ts.
 */
import { debounce, isDesktopWidth, RESIZE_DEBOUNCE_MS } from '../../engine/browser/widgets/viewport';
import { lockScroll } from './scrollLock';

export function installMobileMenu(menu: HTMLDetailsElement): () => void {
  let unlock: (() => void) | undefined;
  const close = (refocus = false) => {
    if (!menu.open) return;
    menu.open = false;
    if (refocus) menu.querySelector('summary')?.focus();
  };
  const onToggle = () => {
    if (menu.open) unlock ??= lockScroll();
    else {
      unlock?.();
      unlock = undefined;
    }
  };
  const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close(true);
  const onFocusOut = (e: FocusEvent) => e.relatedTarget instanceof Node && !menu.contains(e.relatedTarget) && close();
  const onResize = debounce(() => isDesktopWidth(window.innerWidth) && close(), RESIZE_DEBOUNCE_MS);
  const onRoute = () => close();
  // A tap outside the panel and the menu button (the backdrop, the header) closes the menu without acting on what was under it.
  const panel = menu.querySelector('nav');
  const summary = menu.querySelector('summary');
  const onPointer = (e: MouseEvent) => {
    if (!menu.open || !(e.target instanceof Node) || panel?.contains(e.target) || summary?.contains(e.target)) return;
    e.preventDefault();
    close();
  };

  onToggle();
  menu.addEventListener('toggle', onToggle);
  menu.addEventListener('focusout', onFocusOut);
  document.addEventListener('keydown', onKey);
  document.addEventListener('click', onPointer, true);
  window.addEventListener('resize', onResize);
  window.next.router.events.on('routeChangeStart', onRoute);
  return () => {
    menu.removeEventListener('toggle', onToggle);
    menu.removeEventListener('focusout', onFocusOut);
    document.removeEventListener('keydown', onKey);
    document.removeEventListener('click', onPointer, true);
    window.removeEventListener('resize', onResize);
    window.next.router.events.off('routeChangeStart', onRoute);
    unlock?.();
  };
}
