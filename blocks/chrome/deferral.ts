/**
 * When the browser work a page load owes but nobody waits for runs. Reading browser storage or
 * cookies blocks the main thread on the browser process (the first localStorage read of a page
 * load measured 5–20 ms of wall time with almost no CPU, the first cookie read 1–18 ms); inside
 * hydration that wait lengthens the longest task, which a throttled phone (and Lighthouse's 4×
 * simulation) pays fourfold. Run it in its own small task instead, before the visitor could need it.
 */

/** The parts of window these helpers use (a fake in the unit tests). */
export interface DeferralHost {
  requestIdleCallback?: (run: () => void, opts: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
  setTimeout(run: () => void, ms: number): number;
  clearTimeout(handle: number): void;
  addEventListener(type: string, fn: () => void, opts: AddEventListenerOptions): void;
  removeEventListener(type: string, fn: () => void, opts: EventListenerOptions): void;
}

/** The visitor's first move: anything that could end in following a link or sending a form comes after one of these. */
export const FIRST_INPUT_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'focusin'] as const;

/** Runs `run` once the browser is idle (at most `timeoutMs` later; a task later where requestIdleCallback is missing). Returns a cancel function. */
export function whenIdle(run: () => void, host: DeferralHost = window as unknown as DeferralHost, timeoutMs = 3000): () => void {
  if (typeof host.requestIdleCallback === 'function') {
    const handle = host.requestIdleCallback(run, { timeout: timeoutMs });
    return () => host.cancelIdleCallback?.(handle);
  }
  const handle = host.setTimeout(run, 1);
  return () => host.clearTimeout(handle);
}

/**
 * Runs `run` once: when the browser is first idle, or at the visitor's first input if that comes
 * sooner (listened for in the capture phase, so it runs before the page's own handlers of that
 * event — a link pressed at once is rewritten before its click). Returns a cancel function.
 */
export function whenIdleOrFirstInput(run: () => void, host: DeferralHost = window as unknown as DeferralHost, timeoutMs = 3000): () => void {
  let done = false;
  const opts = { capture: true, passive: true };
  const stop = () => {
    done = true;
    cancelIdle();
    for (const type of FIRST_INPUT_EVENTS) host.removeEventListener(type, once, opts);
  };
  const once = () => {
    if (done) return;
    stop();
    run();
  };
  const cancelIdle = whenIdle(once, host, timeoutMs);
  for (const type of FIRST_INPUT_EVENTS) host.addEventListener(type, once, opts);
  return stop;
}
