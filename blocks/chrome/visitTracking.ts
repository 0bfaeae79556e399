/**
 * Visit tracking in the browser (SPEC §4; the rules are engine/browser/tracking.ts). Two steps:
 * - rememberThisVisit: stores the visit's source, path and click ids (a few hundred bytes of
 *   script, in every page) — not during hydration but when the page is first idle or at the
 *   visitor's first input (rememberVisitSoon, ./deferral.ts: the first localStorage read blocks
 *   on the browser process); whatever needs the stored visit waits for it (afterVisitRemembered)
 *   or has it stored first (rememberThisVisit is run once, by whoever needs it first);
 * - traceSessionWhenIdle: once the page is idle, and only when a session trace is due (a stored
 *   click id, no stored uuid), loads ./sessionTrace lazily and posts it. Most visitors never
 *   fetch that chunk. The same idle moment loads ./funnelEvents (first-party visit and funnel
 *   counts), so neither is part of a page's first load.
 */
import { rememberVisit, STORAGE_KEYS, type KeyValueStorage } from '../../engine/browser/visitSource';
import { whenIdle, whenIdleOrFirstInput } from './deferral';

export { whenIdle } from './deferral';

export function localStore(): KeyValueStorage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

let remembered = false;
const waiting: (() => void)[] = [];

/** Stores what this page load's URL brings (once per rememberVisitSoon), then runs what was waiting for it. */
export function rememberThisVisit(): void {
  if (remembered) return;
  remembered = true;
  rememberVisit(localStore(), window.location.search, window.location.pathname);
  for (const run of waiting.splice(0)) run();
}

/** Runs `run` once this page load's visit is stored: at once if it is. Returns a cancel function. */
export function afterVisitRemembered(run: () => void): () => void {
  if (remembered) {
    run();
    return () => {};
  }
  waiting.push(run);
  return () => {
    const at = waiting.indexOf(run);
    if (at >= 0) waiting.splice(at, 1);
  };
}

/** At the layout's mount: the visit is stored when the page is first idle, or at the first input if sooner. */
export function rememberVisitSoon(): () => void {
  remembered = false;
  return whenIdleOrFirstInput(rememberThisVisit);
}

const traceMayBeDue = (store: KeyValueStorage): boolean =>
  !store.getItem(STORAGE_KEYS.uuid) && !!(store.getItem(STORAGE_KEYS.gclid) || store.getItem(STORAGE_KEYS.ttclid));

/** Schedules the session trace after idle; returns a cancel function (for the effect's cleanup). */
export function traceSessionWhenIdle(): () => void {
  let cancelled = false;
  const run = () => {
    if (!cancelled) import('./funnelEvents').then((m) => m.startFunnel()).catch((err) => console.warn('[funnel]', err));
    // the trace reads what this visit stored
    rememberThisVisit();
    const store = localStore();
    try {
      if (cancelled || !store || !traceMayBeDue(store)) return;
    } catch {
      return;
    }
    import('./sessionTrace').then((m) => m.traceSession(store)).catch((err) => console.warn('[session trace]', err));
  };
  const cancel = whenIdle(run);
  return () => ((cancelled = true), cancel());
}
