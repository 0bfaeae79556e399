/**
 * The apply links of the kept parts of a first load (Kept.tsx: server HTML the browser keeps, no
 * React inside) carry this visit's stored source as v1 (SPEC §4), as ApplyLink's hook does for
 * the parts React renders — in plain DOM code, once, after rememberThisVisit has stored it (Layout:
 * afterVisitRemembered).
 */
import { storedSource, withApplySource } from '../../engine/browser/applySource';
import { localStore } from './visitTracking';

export function keptLinksFollowTheVisit(): void {
  const source = storedSource(localStore());
  if (source) {
    for (const a of document.querySelectorAll<HTMLAnchorElement>('a[data-full-load][href*="v1="]')) {
      a.setAttribute('href', withApplySource(a.getAttribute('href')!, source));
    }
  }
}
