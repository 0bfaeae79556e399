/**
 * Visit tracking in the browser (SPEC §4; the rules are engine/tracking.ts). Two steps:
 * - rememberThisVisit, at mount, before any widget reads LoansSource1: stores the visit's
 *   source, path and click ids (a few hundred bytes of script, in every page);
 * - traceSessionWhenIdle: once the page is idle, and only when a session trace is due (a stored
 *   click id, no stored uuid), loads ./sessionTrace lazily and posts it. Most visitors never
 *   fetch that chunk. The same idle moment loads ./funnelEvents (first-party visit and funnel
 *   counts), so neither is part of a page's first load.
 */
import { rememberVisit, STORAGE_KEYS, type KeyValueStorage } from '../../engine/visitSource';

export function localStore(): KeyValueStorage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function rememberThisVisit(): void {
  rememberVisit(localStore(), window.location.search, window.location.pathname);
}

/** Runs `run` once the browser is idle (at most 3 s later; a task later where requestIdleCallback is missing). Returns a cancel function. */
export function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(run, { timeout: 3000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(run, 1);
  return () => window.clearTimeout(handle);
}

const traceMayBeDue = (store: KeyValueStorage): boolean =>
  !store.getItem(STORAGE_KEYS.uuid) && !!(store.getItem(STORAGE_KEYS.gclid) || store.getItem(STORAGE_KEYS.ttclid));

/** Schedules the session trace after idle; returns a cancel function (for the effect's cleanup). */
export function traceSessionWhenIdle(): () => void {
  let cancelled = false;
  const run = () => {
    if (!cancelled) import('./funnelEvents').then((m) => m.startFunnel()).catch((err) => console.warn('[funnel]', err));
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
