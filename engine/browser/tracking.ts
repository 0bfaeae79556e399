/**
 * Visit tracking rules (SPEC §3 "Stored acquisition parameters", §4 "Visit tracking"), as small
 * pure functions; the browser part (storage, the wait, the POST) is blocks/chrome/visitTracking.ts
 * (every page, at mount) and blocks/chrome/sessionTrace.ts (loaded after idle, only when due).
 * What a page load stores lives in ./visitSource (re-exported here), so that every page's
 * script carries only that part; the session-trace rules below ship in the lazy chunk.
 *
 * - On every page load the URL offers: id = source1 or utm_campaign; path = source2 or
 *   utm_source, else the page path; gclid and ttclid when present.
 * - id and path: first touch wins (a value already stored is kept). gclid/ttclid: saved
 *   whenever the URL has them. LoansSource1 (the apply source, SPEC §2 Apply v1) is written
 *   with this visit's id whenever the URL gives one.
 * - Keys are stored encoded: the base64 of the key's name (STORAGE_KEYS; "id" → "aWQ=").
 *   Values are stored as given, cut to the lengths the session-trace schema accepts.
 * - Click id: "gg" + gclid, else "tt" + ttclid, else "". Session uuid: "cc" + a dashless
 *   random (version 4) UUID.
 * - First visit with a click id and no stored uuid: create the uuid, wait for the analytics
 *   client id (a try now, then every 200 ms, 10 tries in all; "" when none), post the trace,
 *   then store the uuid — one post per browser.
 */

export * from './visitSource';
import type { SessionTrace } from '../../schemas/api.types';
import { TRACE_LIMITS } from './visitSource';
import { cleanClickId, cleanText } from './cleanText';

/** Analytics client id wait (SPEC §9): every 200 ms, up to 10 tries. */
export const CLIENT_ID_RETRY = { intervalMs: 200, tries: 10 } as const;

/** SPEC §3: gclid gives "gg", ttclid gives "tt", else empty. */
export function clickIdOf(ids: { gclid?: string | null; ttclid?: string | null }): string {
  if (ids.gclid) return `gg${ids.gclid}`;
  if (ids.ttclid) return `tt${ids.ttclid}`;
  return '';
}

/** "cc" + 32 lower-case hex digits of a version 4 UUID, from 16 random bytes. */
export function sessionUuid(random16: Uint8Array): string {
  const b = Array.from(random16.slice(0, 16));
  if (b.length !== 16) throw new Error('sessionUuid needs 16 random bytes');
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  return `cc${b.map((x) => x.toString(16).padStart(2, '0')).join('')}`;
}

export const SESSION_UUID = /^cc[0-9a-f]{32}$/;

/** The GA client id from a document.cookie string: `_ga=GA1.1.123.456` → "123.456"; "" when absent. */
export function gaClientIdFromCookie(cookie: string): string {
  const m = /(?:^|;\s*)_ga=(?:GA\d+\.\d+\.)?(\d+\.\d+)(?:;|$)/.exec(cookie);
  return m ? m[1]!.slice(0, TRACE_LIMITS.ggClientId) : '';
}

/**
 * Waits for the analytics client id: reads now, then every `intervalMs` until it is non-empty
 * or `tries` reads were made; resolves "" when none came. `sleep` is injectable for tests.
 */
export async function waitForClientId(
  read: () => string | undefined,
  opts: { intervalMs?: number; tries?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<string> {
  const { intervalMs = CLIENT_ID_RETRY.intervalMs, tries = CLIENT_ID_RETRY.tries } = opts;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let i = 0; i < tries; i++) {
    if (i > 0) await sleep(intervalMs);
    let id: string | undefined;
    try {
      id = read();
    } catch {
      id = undefined;
    }
    if (id) return cleanText(id, TRACE_LIMITS.ggClientId);
  }
  return '';
}

/** What is stored now → the trace to post, or undefined when none is due (no click id, or a uuid is stored). */
export function sessionTraceDue(stored: {
  id?: string | null;
  path?: string | null;
  gclid?: string | null;
  ttclid?: string | null;
  uuid?: string | null;
}): Omit<SessionTrace, 'uuid' | 'ggClientId'> | undefined {
  const clickId = clickIdOf(stored);
  if (!clickId || stored.uuid) return undefined;
  return {
    // what an earlier script stored may hold what the server refuses
    source1: cleanText(stored.id ?? '', TRACE_LIMITS.source1),
    source2: cleanText(stored.path ?? '', TRACE_LIMITS.source2),
    clickId: cleanClickId(clickId, TRACE_LIMITS.clickId),
  };
}

/** After the POST: the uuid is stored (never posted again) unless the answer says to try later (network error, 429, 5xx). */
export const traceSettled = (status: number | undefined): boolean => status !== undefined && status < 500 && status !== 429;
