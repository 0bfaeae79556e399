/**
 * Visit tracking rules (SPEC §3 "Stored acquisition parameters", §4 "Visit tracking"), as small
 * pure functions; the browser part (storage, the wait, the POST) is blocks/layout/visitTracking.ts.
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

import { SOURCE_STORAGE_KEY } from './apply';

/** Storage keys: base64 of each name (tests/unit/tracking.test.ts checks them against btoa). */
export const STORAGE_KEYS = {
  id: 'aWQ=',
  path: 'cGF0aA==',
  gclid: 'Z2NsaWQ=',
  ttclid: 'dHRjbGlk',
  uuid: 'dXVpZA==',
} as const;

/** Longest value kept for each field; equal to the maxLength in schemas/api/trace-session.schema.json (a test checks). */
export const TRACE_LIMITS = { source1: 200, source2: 500, clickId: 512, ggClientId: 100 } as const;
/** Longest gclid/ttclid kept, so that the prefixed click id fits. */
const CLICK_ID_MAX = TRACE_LIMITS.clickId - 2;

/** Analytics client id wait (SPEC §9): every 200 ms, up to 10 tries. */
export const CLIENT_ID_RETRY = { intervalMs: 200, tries: 10 } as const;

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** What one page load's URL offers to store. */
export interface VisitOffer {
  id?: string;
  path: string;
  gclid?: string;
  ttclid?: string;
}

const param = (query: URLSearchParams, name: string, max: number): string | undefined => query.get(name)?.trim().slice(0, max) || undefined;

/** SPEC §4: source1 or utm_campaign → id; source2 or utm_source, else the page path → path; gclid, ttclid. */
export function visitOffer(search: string, pathname: string): VisitOffer {
  const q = new URLSearchParams(search);
  const offer: VisitOffer = {
    path: param(q, 'source2', TRACE_LIMITS.source2) ?? param(q, 'utm_source', TRACE_LIMITS.source2) ?? (pathname.slice(0, TRACE_LIMITS.source2) || '/'),
  };
  const id = param(q, 'source1', TRACE_LIMITS.source1) ?? param(q, 'utm_campaign', TRACE_LIMITS.source1);
  const gclid = param(q, 'gclid', CLICK_ID_MAX);
  const ttclid = param(q, 'ttclid', CLICK_ID_MAX);
  if (id) offer.id = id;
  if (gclid) offer.gclid = gclid;
  if (ttclid) offer.ttclid = ttclid;
  return offer;
}

/** The writes one page load makes: id and path only when none is stored (first touch wins); click ids whenever given. */
export function visitWrites(offer: VisitOffer, stored: { id?: string | null; path?: string | null }): Record<string, string> {
  const writes: Record<string, string> = {};
  if (offer.id && !stored.id) writes[STORAGE_KEYS.id] = offer.id;
  if (!stored.path) writes[STORAGE_KEYS.path] = offer.path;
  if (offer.gclid) writes[STORAGE_KEYS.gclid] = offer.gclid;
  if (offer.ttclid) writes[STORAGE_KEYS.ttclid] = offer.ttclid;
  return writes;
}

/**
 * One page load (SPEC §4): stores what the URL brings into `storage`, first touch winning for id
 * and path, and writes LoansSource1 with this visit's id when the URL gives one. Storage that
 * throws (private mode, quota) stores nothing and breaks nothing.
 */
export function rememberVisit(storage: KeyValueStorage | undefined, search: string, pathname: string): void {
  if (!storage) return;
  try {
    const offer = visitOffer(search, pathname);
    const writes = visitWrites(offer, { id: storage.getItem(STORAGE_KEYS.id), path: storage.getItem(STORAGE_KEYS.path) });
    for (const [key, value] of Object.entries(writes)) storage.setItem(key, value);
    if (offer.id) storage.setItem(SOURCE_STORAGE_KEY, offer.id);
  } catch {
    /* storage unavailable: nothing kept */
  }
}

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
    if (id) return id.slice(0, TRACE_LIMITS.ggClientId);
  }
  return '';
}

/** The body of POST /api/trace/session (schemas/api/trace-session.schema.json). */
export interface SessionTraceBody {
  source1: string;
  source2: string;
  clickId: string;
  uuid: string;
  ggClientId: string;
}

/** What is stored now → the trace to post, or undefined when none is due (no click id, or a uuid is stored). */
export function sessionTraceDue(stored: { id?: string | null; path?: string | null; gclid?: string | null; ttclid?: string | null; uuid?: string | null }): Omit<SessionTraceBody, 'uuid' | 'ggClientId'> | undefined {
  const clickId = clickIdOf(stored);
  if (!clickId || stored.uuid) return undefined;
  return {
    source1: (stored.id ?? '').slice(0, TRACE_LIMITS.source1),
    source2: (stored.path ?? '').slice(0, TRACE_LIMITS.source2),
    clickId: clickId.slice(0, TRACE_LIMITS.clickId),
  };
}

/** After the POST: the uuid is stored (never posted again) unless the answer says to try later (network error, 429, 5xx). */
export const traceSettled = (status: number | undefined): boolean => status !== undefined && status < 500 && status !== 429;
