/**
 * First-party funnel events in the browser, loaded lazily by ./visitTracking after idle (never
 * part of a page's first load). It decides the visit (engine/traffic/browserVisit.ts), counts
 * this page's view, takes over the queue ./funnel fills, and sends the events in batches with
 * navigator.sendBeacon: a couple of seconds after the last one, and at once when the page is
 * hidden or left. Nothing is retried: a count lost now and then is cheaper than a second send.
 */
import type { EventBatch, FunnelEvent, Landing } from '../../schemas/api.types';
import {
  batchesOf,
  EVENTS_URL,
  landingParams,
  parseStoredVisit,
  referrerHostOf,
  visitFor,
  visitIdFrom,
  VISIT_STORAGE_KEY,
  type StoredVisit,
} from '../../engine/traffic/browserVisit';
import { optedOutSoon } from './thirdParties';

const SEND_AFTER_MS = 2000;

interface RouterEvents {
  on(name: 'routeChangeComplete', fn: (url: string) => void): void;
}
type FunnelWindow = Window & { __lsFunnel?: { push(e: FunnelEvent): unknown }; next?: { router?: { events?: RouterEvents } } };

let started = false;

function session(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

const pathNow = () => window.location.pathname.slice(0, 500) || '/';

function send(body: EventBatch): void {
  const json = JSON.stringify(body);
  const sent = typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(EVENTS_URL, new Blob([json], { type: 'application/json' }));
  if (!sent) {
    fetch(EVENTS_URL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json, keepalive: true, credentials: 'same-origin' }).catch(
      () => {},
    );
  }
}

export async function startFunnel(): Promise<void> {
  if (started) return;
  started = true;
  const w = window as FunnelWindow;
  // read without blocking (./thirdParties.ts), before the visit's landing is decided
  const optedOut = await optedOutSoon();
  const store = session();
  const params = landingParams(window.location.search, optedOut);
  let stored: StoredVisit | undefined;
  try {
    stored = parseStoredVisit(store?.getItem(VISIT_STORAGE_KEY) ?? null);
  } catch {
    stored = undefined;
  }
  const { visit, isNew } = visitFor(stored, Date.now(), params, () => visitIdFrom(crypto.getRandomValues(new Uint8Array(16))));
  let landing: Landing | undefined;
  if (isNew) {
    const referrerHost = referrerHostOf(document.referrer, window.location.hostname);
    landing = { path: pathNow(), ...(referrerHost ? { referrerHost } : {}), ...(Object.keys(params).length ? { params } : {}) };
  }
  const save = () => {
    try {
      store?.setItem(VISIT_STORAGE_KEY, JSON.stringify({ ...visit, last: Date.now() }));
    } catch {
      /* storage unavailable: every page load is a visit */
    }
  };
  save();

  const queue: FunnelEvent[] = [{ type: 'page_view', path: pathNow() }];
  let timer: number | undefined;
  const flush = () => {
    if (timer !== undefined) window.clearTimeout(timer);
    timer = undefined;
    if (!queue.length) return;
    for (const body of batchesOf(visit.id, queue.splice(0), landing)) send(body);
    landing = undefined;
    save();
  };
  const push = (e: FunnelEvent) => {
    queue.push(e);
    if (timer === undefined) timer = window.setTimeout(flush, SEND_AFTER_MS);
  };
  const earlier = Array.isArray(w.__lsFunnel) ? (w.__lsFunnel as FunnelEvent[]) : [];
  w.__lsFunnel = { push };
  earlier.forEach(push);
  if (timer === undefined) timer = window.setTimeout(flush, SEND_AFTER_MS);
  w.next?.router?.events?.on('routeChangeComplete', () => push({ type: 'page_view', path: pathNow() }));
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush());
  window.addEventListener('pagehide', flush);
}
