/**
 * What a page load stores (SPEC §3, §4 Visit tracking) — the part of the tracking rules that runs
 * in every page, at mount, kept apart from the session-trace rules so that every page's script
 * carries only this (engine/browser/tracking.ts re-exports it: import the rules from there).
 */
import { SOURCE_STORAGE_KEY } from './applySource';
import { cleanText } from './cleanText';

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

/**
 * A parameter's first non-empty value, its name in any case: as the visit the console counts reads
 * it (engine/browser/visit.ts landingParams), so that a landing's `UTM_Campaign=x` or
 * `utm_campaign=&utm_campaign=x` is campaign x for the lead and its apply links as for the visit.
 */
function param(query: URLSearchParams, name: string, max: number): string | undefined {
  for (const [key, value] of query) if (key.toLowerCase() === name && cleanText(value, max)) return cleanText(value, max);
  return undefined;
}

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
