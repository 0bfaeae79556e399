/**
 * A timeout for an answer from another service (Redis, an outside scrub, a buyer, a webhook),
 * counted in time this process could have read it. Node runs the timers that are due before it
 * reads its sockets, so a plain timer that came due while the event loop was held (a long render,
 * a collection, a machine short of CPU) fires before an answer that arrived in time is read, and
 * the answer is lost. A deadline whose timer fires late by more than half its time waits once
 * more instead: the answer, if it is in the socket, is read first. A service that is really away
 * costs `ms` more, and only when the process was held.
 *
 * The signal aborts with a "TimeoutError" DOMException, as AbortSignal.timeout's does; clear()
 * once the answer is in. The timer does not keep the process alive.
 */
export function deadline(ms: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const arm = (again: boolean) => {
    const due = performance.now() + ms;
    timer = setTimeout(() => {
      if (!again && performance.now() - due > ms / 2) arm(true);
      else controller.abort(new DOMException(`no answer in ${ms} ms`, 'TimeoutError'));
    }, ms);
    timer.unref();
  };
  arm(false);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** `p`, or a rejection once the deadline of `ms` has passed (see deadline). */
export function within<T>(p: Promise<T>, ms: number): Promise<T> {
  const { signal, clear } = deadline(ms);
  const timeout = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error(`no answer in ${ms} ms`)), { once: true }));
  return Promise.race([p, timeout]).finally(clear);
}
