/**
 * funnel(): the one call a block makes to count a funnel event (amount used, apply view, a form
 * step, submitted, state refused). It only queues the event on window; the lazy chunk
 * ./funnelEvents, loaded after idle by ./visitTracking, sends the queue with sendBeacon. A few
 * bytes in the blocks that use it, nothing in the others.
 */
import type { FunnelEvent } from '../../schemas/api.types';

export type FunnelCall = Omit<FunnelEvent, 'path'> & { path?: string };
type FunnelWindow = Window & { __lsFunnel?: { push(e: FunnelEvent): unknown }; __lsFunnelOnce?: Set<string> };

/** `once`: count this event at most once per page (a slider dragged ten times is one use). */
export function funnel(event: FunnelCall, opts: { once?: boolean } = {}): void {
  if (typeof window === 'undefined') return;
  const w = window as FunnelWindow;
  if (opts.once) {
    const key = `${event.type} ${window.location.pathname}`;
    if ((w.__lsFunnelOnce ??= new Set()).has(key)) return;
    w.__lsFunnelOnce.add(key);
  }
  (w.__lsFunnel ??= [] as FunnelEvent[]).push({ path: window.location.pathname.slice(0, 500) || '/', ...event } as FunnelEvent);
}
