/**
 * The session trace (SPEC §4, §7), loaded lazily by ./visitTracking once a trace is due: a new
 * uuid, the analytics client id (waited for: every 200 ms, 10 tries), POST /api/trace/session,
 * then the uuid is stored so this browser never posts again. A network error, 429 or 5xx leaves
 * the uuid unstored, so a later page load tries again. Errors are logged only (SPEC §8).
 */
import {
  gaClientIdFromCookie,
  sessionTraceDue,
  sessionUuid,
  STORAGE_KEYS,
  traceSettled,
  waitForClientId,
  type KeyValueStorage,
} from '../../engine/browser/tracking';
import type { SessionTrace } from '../../schemas/api.types';

export const SESSION_TRACE_URL = '/api/trace/session';

interface AnalyticsWindow {
  ga?: { getAll?: () => { get?: (field: string) => unknown }[] };
}

/** The GA client id: the _ga cookie, else the tag manager's tracker; "" while neither has one. */
function analyticsClientId(): string {
  const fromCookie = gaClientIdFromCookie(document.cookie);
  if (fromCookie) return fromCookie;
  const tracker = (window as AnalyticsWindow).ga?.getAll?.()[0];
  const id = tracker?.get?.('clientId');
  return typeof id === 'string' ? id : '';
}

let running: Promise<void> | undefined;

/** Posts the trace when one is due; at most one run at a time per page. */
export function traceSession(store: KeyValueStorage): Promise<void> {
  running ??= post(store).finally(() => (running = undefined));
  return running;
}

async function post(store: KeyValueStorage): Promise<void> {
  const read = (key: string) => store.getItem(key);
  const due = sessionTraceDue({
    id: read(STORAGE_KEYS.id),
    path: read(STORAGE_KEYS.path),
    gclid: read(STORAGE_KEYS.gclid),
    ttclid: read(STORAGE_KEYS.ttclid),
    uuid: read(STORAGE_KEYS.uuid),
  });
  if (!due) return;
  const uuid = sessionUuid(crypto.getRandomValues(new Uint8Array(16)));
  const ggClientId = await waitForClientId(analyticsClientId);
  if (read(STORAGE_KEYS.uuid)) return; // another tab posted meanwhile
  const body: SessionTrace = { ...due, uuid, ggClientId };
  let status: number | undefined;
  try {
    const res = await fetch(SESSION_TRACE_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      keepalive: true,
    });
    status = res.status;
    if (!res.ok) console.warn('[session trace]', status, await res.text().catch(() => ''));
  } catch (err) {
    console.warn('[session trace]', err);
  }
  if (traceSettled(status)) store.setItem(STORAGE_KEYS.uuid, uuid);
}
