/**
 * Layout behaviour every page needs, in plain DOM code (React state would cost more bytes in
 * every page's script): the header turns solid past 64 px of scroll, and the route progress bar
 * follows next/router's route events. The mobile menu's behaviour (mobileMenu.ts) is fetched on
 * its first opening — the menu itself is a <details>, so it opens at once and without script.
 * Rules in engine/widgets/layout.ts.
 */
import Router from 'next/router';
import { isHeaderSolid, progressState, type RouteEvent } from '../../engine/widgets/layout';

export function installLayoutBehaviour(): () => void {
  const header = document.querySelector<HTMLElement>('[data-site-header]');
  const menu = header?.querySelector('details');
  const bar = document.getElementById('route-progress');
  let menuOff: (() => void) | undefined;

  const onScroll = () => header?.toggleAttribute('data-solid', isHeaderSolid(window.scrollY));
  const onFirstToggle = () => {
    menu?.removeEventListener('toggle', onFirstToggle);
    void import('./mobileMenu').then((m) => (menuOff = m.installMobileMenu(menu!)));
  };
  const routeEvents = (['routeChangeStart', 'routeChangeComplete', 'routeChangeError'] as RouteEvent[]).map(
    (name) => [name, () => bar?.setAttribute('data-state', progressState(name))] as const,
  );

  onScroll();
  window.addEventListener('scroll', onScroll, { passive: true });
  menu?.addEventListener('toggle', onFirstToggle);
  for (const [name, fn] of routeEvents) Router.events.on(name, fn);
  return () => {
    window.removeEventListener('scroll', onScroll);
    menu?.removeEventListener('toggle', onFirstToggle);
    for (const [name, fn] of routeEvents) Router.events.off(name, fn);
    menuOff?.();
  };
}
