/**
 * The browser's side of first-party visit counting, as pure rules (the lazy chunk
 * blocks/chrome/funnelEvents.ts applies them):
 * - a visit lives in the tab's sessionStorage, under the id the server gave it in the answer to
 *   its first batch (engine/traffic/visitId.ts), and the browser's latest in localStorage: a tab
 *   without one of its own (a link opened in a new tab) continues the latest; a new one begins when there is none, after
 *   VISIT_IDLE_MS without an event, or when the URL brings other campaign parameters (a new ad
 *   click is a new landing; a reload of the same landing is not);
 * - the landing's parameters: source1/source2, click ids, every utm_*; click ids left out when
 *   the visitor opted out (the server drops them too);
 * - the referrer as its host only.
 */
import type { EventBatch, Landing, LandingParams } from '../../schemas/api.types';
import { cleanText } from './cleanText';
import { cutToCharacters } from './visitValue';

// "2": ids the browser made itself (before the server issued them) are not sent again.
export const VISIT_STORAGE_KEY = 'ls.visit2';
export const VISIT_IDLE_MS = 30 * 60_000;
export const EVENTS_URL = '/api/events';
/** Events per POST (the schema's maxItems). */
export const EVENTS_PER_BATCH = 50;

const NAMED = ['source1', 'source2', 'gclid', 'ttclid', 'fbclid', 'msclkid'] as const;
const CLICK_IDS = new Set(['gclid', 'ttclid', 'fbclid', 'msclkid']);
const UTM = /^utm_[a-z0-9_]{1,32}$/;
const MAX_PARAMS = 24;
/** The campaign parameters of a query string (values without control characters, trimmed and cut to VISIT_VALUE_MAX characters as ./visitValue.ts counts them; empty ones left out). */
export function landingParams(search: string, optedOut: boolean): LandingParams {
  const q = new URLSearchParams(search);
  const out: Record<string, string> = {};
  for (const [key, raw] of q) {
    if (Object.keys(out).length >= MAX_PARAMS) break;
    const name = key.toLowerCase();
    if (!(NAMED as readonly string[]).includes(name) && !UTM.test(name)) continue;
    if (optedOut && CLICK_IDS.has(name)) continue;
    // control characters are not part of any campaign's value, and the server refuses them (a NUL cannot be stored in PostgreSQL)
    // cut by the one rule the events API and the cost import share, so a report naming the full campaign finds this visit
    const value = cutToCharacters(cleanText(raw, raw.length));
    if (value && !(name in out)) out[name] = value;
  }
  return out;
}

/** The referrer's host ("" for none, for another scheme, or for this site's own pages). */
export function referrerHostOf(referrer: string, ownHost: string): string {
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
    const host = url.hostname.toLowerCase();
    return host === ownHost.toLowerCase() ? '' : host.slice(0, 253);
  } catch {
    return '';
  }
}

export interface StoredVisit {
  id: string;
  /** ms since the epoch of the visit's last event */
  last: number;
  /** the landing's campaign parameters, as JSON (what makes a new ad click a new visit) */
  sig: string;
}

export const signatureOf = (params: LandingParams): string => (Object.keys(params).length ? JSON.stringify(params) : '');

/** The visit this page load belongs to: the stored one, or a new one (then `landing` is due, and its id is `newId()`, "" until the server answers). */
export function visitFor(stored: StoredVisit | undefined, now: number, params: LandingParams, newId: () => string): { visit: StoredVisit; isNew: boolean } {
  const sig = signatureOf(params);
  const keep = stored && now - stored.last < VISIT_IDLE_MS && (!sig || sig === stored.sig);
  if (keep) return { visit: { ...stored, last: now }, isNew: false };
  return { visit: { id: newId(), last: now, sig }, isNew: true };
}

/**
 * The visit a page load may continue: the tab's own, else the browser's latest (kept by every tab),
 * which visitFor keeps only while recent and of the same campaign. Without the latter, "Check Your
 * Rate" opened in a new tab began a visit without the ad's campaign, and its lead counted under none.
 */
export function storedVisitFor(tab: string | null, browser: string | null): StoredVisit | undefined {
  return parseStoredVisit(tab) ?? parseStoredVisit(browser);
}

export function parseStoredVisit(text: string | null): StoredVisit | undefined {
  try {
    const v = JSON.parse(text ?? '') as Partial<StoredVisit>;
    return typeof v.id === 'string' && /^v[0-9a-f]{32}$/.test(v.id) && typeof v.last === 'number' && typeof v.sig === 'string' ? (v as StoredVisit) : undefined;
  } catch {
    return undefined;
  }
}

/** The POST bodies for queued events: the landing rides with the first one only; a visit without its id yet ("") sends none. */
export function batchesOf(visitId: string, events: EventBatch['events'][number][], landing: Landing | undefined): EventBatch[] {
  const out: EventBatch[] = [];
  for (let i = 0; i < events.length; i += EVENTS_PER_BATCH) {
    const part = events.slice(i, i + EVENTS_PER_BATCH) as EventBatch['events'];
    out.push({ ...(visitId ? { visitId } : {}), ...(i === 0 && landing ? { landing } : {}), events: part });
  }
  return out;
}

/** The funnel event a move of the apply form between screens counts: a completed step, or a refused state. */
export function formMoveEvent(from: string, to: string, stateCode: string | undefined): Omit<EventBatch['events'][number], 'path'> | undefined {
  if (from === 'request' && to === 'contact') return { type: 'step_completed', step: 1 };
  if (from === 'contact' && to === 'income') return { type: 'step_completed', step: 2 };
  if (from === 'request' && to === 'unavailable' && stateCode && /^[a-z]{2}$/i.test(stateCode))
    return { type: 'state_refused', state: stateCode.toUpperCase() };
  return undefined;
}
