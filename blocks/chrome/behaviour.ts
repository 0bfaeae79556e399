/**
 * Layout behaviour every page needs, in plain DOM code (React state would cost more bytes in
 * every page's script): the header turns solid past 64 px of scroll. The mobile menu's behaviour
 * (mobileMenu.ts, in afterFirstInput.ts's chunk) is fetched on its first opening — the menu itself is a <details>, so it opens
 * at once and without script. (The route progress bar comes with client-side navigation:
 * navigate.ts.) Rules in engine/browser/widgets/layout.ts.
 */
import { isHeaderSolid } from '../../engine/browser/widgets/layout';

export function installLayoutBehaviour(): () => void {
  const header = document.querySelector<HTMLElement>('[data-site-header]');
  const menu = header?.querySelector('details');
  let menuOff: (() => void) | undefined;

  const onScroll = () => header?.toggleAttribute('data-solid', isHeaderSolid(window.scrollY));
  // Until mobileMenu.ts has arrived, Escape and a tap outside the panel already close the menu
  // (a quick visitor, or a slow phone, must not find it stuck open). Listening from the start, not
  // from the first toggle event: the browser fires that event in a later task, and on a busy page
  // it runs input first, so an Escape pressed just after the tap would find no listener.
  const onEarlyKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !menu?.open) return;
    menu.open = false;
    menu.querySelector('summary')?.focus();
  };
  const onEarlyTap = (e: MouseEvent) => {
    if (!menu?.open || !(e.target instanceof Node) || menu.querySelector('nav')?.contains(e.target) || menu.querySelector('summary')?.contains(e.target))
      return;
    e.preventDefault();
    menu.open = false;
  };
  const early = (on: boolean) => {
    if (on) {
      document.addEventListener('keydown', onEarlyKey);
      document.addEventListener('click', onEarlyTap, true);
    } else {
      document.removeEventListener('keydown', onEarlyKey);
      document.removeEventListener('click', onEarlyTap, true);
    }
  };
  const onFirstToggle = () => {
    menu?.removeEventListener('toggle', onFirstToggle);
    void import('./afterFirstInput').then((m) => {
      early(false);
      menuOff = m.installMobileMenu(menu!);
    });
  };
  // The first reading waits for the next frame: reading scrollY lays the page out, which inside the
  // hydration task (where this runs) would lengthen it by a whole layout; the frame lays it out anyway.
  const first = requestAnimationFrame(onScroll);
  window.addEventListener('scroll', onScroll, { passive: true });
  menu?.addEventListener('toggle', onFirstToggle);
  if (menu) early(true);
  // The <details> opens without script: a visitor may have opened it before the page hydrated.
  if (menu?.open) onFirstToggle();
  return () => {
    cancelAnimationFrame(first);
    window.removeEventListener('scroll', onScroll);
    menu?.removeEventListener('toggle', onFirstToggle);
    early(false);
    menuOff?.();
  };
}
