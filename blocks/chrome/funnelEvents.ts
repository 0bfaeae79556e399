/**
 * First-party funnel events in the browser, loaded lazily by ./visitTracking after idle (never
 * part of a page's first load). It decides the visit (engine/browser/visit.ts), counts
 * this page's view, takes over the queue ./funnel fills, and sends the events in batches with
 * navigator.sendBeacon: a couple of seconds after the last one, and at once when the page is
 * hidden or left. A new visit's first batch (its landing and this page's view) goes at once by
 * fetch instead, because its answer carries the visit's id, issued by the server; events queued
 * meanwhile wait for it. Nothing is retried: a count lost now and then is cheaper than a second
 * send (a first batch that got no id is sent again with the next events).
 */
import type { EventBatch, FunnelEvent, Landing } from '../../schemas/api.types';
import {
  batchesOf,
  EVENTS_URL,
  landingParams,
  referrerHostOf,
  storedVisitFor,
  EVENTS_PER_BATCH,
  visitFor,
  VISIT_STORAGE_KEY,
  type StoredVisit,
} from '../../engine/browser/visit';
import { optedOutSoon } from './thirdParties';

const SEND_AFTER_MS = 2000;

interface RouterEvents {
  on(name: 'routeChangeComplete', fn: (url: string) => void): void;
}
type FunnelWindow = Window & { __lsFunnel?: { push(e: FunnelEvent): unknown }; next?: { router?: { events?: RouterEvents } } };

let started = false;

function storage(kind: 'sessionStorage' | 'localStorage'): Storage | undefined {
  try {
    return window[kind];
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

/** Sends a visit's first batch; the id the server gave the visit, or undefined. */
async function firstBatch(body: EventBatch): Promise<string | undefined> {
  try {
    const res = await fetch(EVENTS_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      keepalive: true,
      credentials: 'same-origin',
    });
    const answer = res.ok ? ((await res.json()) as { visitId?: unknown }) : {};
    return typeof answer.visitId === 'string' ? answer.visitId : undefined;
  } catch {
    return undefined;
  }
}

export async function startFunnel(): Promise<void> {
  if (started) return;
  started = true;
  const w = window as FunnelWindow;
  // read without blocking (./thirdParties.ts), before the visit's landing is decided
  const optedOut = await optedOutSoon();
  // the tab's visit, and the browser's latest, which a tab opened without one continues
  const stores = [storage('sessionStorage'), storage('localStorage')];
  const params = landingParams(window.location.search, optedOut);
  const read = (s: Storage | undefined) => {
    try {
      return s?.getItem(VISIT_STORAGE_KEY) ?? null;
    } catch {
      return null;
    }
  };
  const stored: StoredVisit | undefined = storedVisitFor(read(stores[0]), read(stores[1]));
  const { visit, isNew } = visitFor(stored, Date.now(), params, () => '');
  let landing: Landing | undefined;
  if (isNew) {
    const referrerHost = referrerHostOf(document.referrer, window.location.hostname);
    landing = { path: pathNow(), ...(referrerHost ? { referrerHost } : {}), ...(Object.keys(params).length ? { params } : {}) };
  }
  const save = () => {
    if (!visit.id) return;
    const text = JSON.stringify({ ...visit, last: Date.now() });
    for (const s of stores)
      try {
        s?.setItem(VISIT_STORAGE_KEY, text);
      } catch {
        /* storage unavailable: every page load is a visit */
      }
  };
  save();

  const queue: FunnelEvent[] = [{ type: 'page_view', path: pathNow() }];
  let timer: number | undefined;
  let asking = false;
  const flush = () => {
    if (timer !== undefined) window.clearTimeout(timer);
    timer = undefined;
    if (!queue.length || asking) return;
    if (!visit.id) {
      asking = true;
      const [first] = batchesOf('', queue.splice(0, EVENTS_PER_BATCH), landing);
      void firstBatch(first!).then((id) => {
        asking = false;
        if (id) {
          visit.id = id;
          landing = undefined;
          save();
        }
        if (!queue.length) return;
        if (id) flush();
        else if (timer === undefined) timer = window.setTimeout(flush, SEND_AFTER_MS);
      });
      return;
    }
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
  if (!visit.id) flush();
  else if (timer === undefined) timer = window.setTimeout(flush, SEND_AFTER_MS);
  w.next?.router?.events?.on('routeChangeComplete', () => push({ type: 'page_view', path: pathNow() }));
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush());
  window.addEventListener('pagehide', flush);
}
