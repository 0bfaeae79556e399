/**
 * What the kept parts of a first load (Kept.tsx: server HTML the browser keeps, no React inside)
 * still need from the page's script, in plain DOM code:
 * - their apply links carry this visit's stored source as v1 (SPEC §4), as ApplyLink's hook does
 *   for the parts React renders;
 * - the document's JSON-LD describes the first page only: gone at the first client-side navigation
 *   (the next page's comes with its data, through next/head).
 */
import Router from 'next/router';
import { storedSource, withApplySource } from '../../engine/apply';
import { localStore } from './visitTracking';

export function keptLinksFollowTheVisit(): () => void {
  const source = storedSource(localStore());
  if (source) {
    for (const a of document.querySelectorAll<HTMLAnchorElement>('a[data-full-load][href*="v1="]')) {
      a.setAttribute('href', withApplySource(a.getAttribute('href')!, source));
    }
  }
  const dropFirstJsonLd = () => {
    Router.events.off('routeChangeComplete', dropFirstJsonLd);
    for (const s of document.querySelectorAll('head > script[type="application/ld+json"]:not([data-next-head])')) s.remove();
  };
  Router.events.on('routeChangeComplete', dropFirstJsonLd);
  return () => Router.events.off('routeChangeComplete', dropFirstJsonLd);
}
