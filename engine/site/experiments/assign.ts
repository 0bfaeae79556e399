/**
 * Which variant a visitor sees: pure rules, table-tested (tests/unit/experiment-assign.test.ts)
 * and asked by the front door on every request for a page under an experiment.
 *
 * - A visitor is a first-party id, kept with their assignments in one cookie (EXPERIMENT_COOKIE:
 *   "<visitor>|<experiment>:<variant>|…", HttpOnly, SameSite=Lax, a year). Nothing in it is
 *   personal; it only makes the site serve the same page again.
 * - A visitor meeting an experiment for the first time is assigned by a hash of their id and the
 *   experiment's id, against the weights at that moment (a bandit's as last set, ./allocation.ts);
 *   the cookie then keeps the variant, so a change of weights moves new visitors only, and the
 *   visitor sees the same variant on every page of the experiment and after a reload. Nothing
 *   about the request (its user agent included) plays a part: a crawler is a visitor without the
 *   cookie.
 * - running: assigned and counted; paused, before its start or from its end: everyone sees the
 *   control and nothing is counted (assignments are kept for a resume); stopped: everyone sees
 *   the winner (or the control), the cookie ignored — the catalog then makes it the route's own
 *   page (./compile.ts), so the front door no longer asks here.
 */
import type { ExperimentVariant } from '../../../schemas/brand.types';

export const EXPERIMENT_COOKIE = 'lsx';
/** A year: a visitor coming back within it sees their variant again. */
export const EXPERIMENT_COOKIE_MAX_AGE = 31_536_000;
const VISITOR = /^[0-9a-f]{16,32}$/;

/** An experiment as the front door and the exposure count read it. */
export interface LiveExperiment {
  id: string;
  /** the variants, the control first; `changes` false: the route's own page */
  variants: readonly { id: string; weight: number; changes: boolean }[];
  status: 'running' | 'paused' | 'stopped';
  winner?: string | undefined;
  startMs: number;
  endMs?: number | undefined;
  /** a bandit's allocation (./allocation.ts): the variants with the weights in force, which new visitors are assigned by */
  allocation?: { readonly variants: LiveExperiment['variants'] } | undefined;
}

/** What a visitor is served of an experiment. */
export interface Serving {
  variant: string;
  /** running and the variant is the visitor's own: their exposure counts */
  counted: boolean;
  /** the visitor was assigned now: the cookie is to be set */
  assigned: boolean;
  /** the visitor assigned now (their id, for the cookie) */
  visitor?: string;
}

/** A day ("2026-11-01", UTC midnight) or a UTC time, as epoch milliseconds. */
export const timeOf = (text: string): number => Date.parse(/T/.test(text) ? text : `${text}T00:00:00Z`);

export function liveExperiment(
  e: { id: string; variants: readonly ExperimentVariant[]; status: LiveExperiment['status']; winner?: string; start: string; end?: string },
  changes: (v: ExperimentVariant) => boolean,
): LiveExperiment {
  return {
    id: e.id,
    variants: e.variants.map((v) => ({ id: v.id, weight: v.weight, changes: changes(v) })),
    status: e.status,
    winner: e.winner,
    startMs: timeOf(e.start),
    endMs: e.end === undefined ? undefined : timeOf(e.end),
  };
}

/** A number in [0, 1) from a visitor and an experiment: FNV-1a over both, then murmur3's finaliser (an even spread for ids that differ in one digit). */
export function bucketOf(visitor: string, experiment: string): number {
  // FNV-1a runs over `${experiment}:${visitor}`: its state after the experiment's part is the same
  // for every visitor, so it is kept per experiment and only the visitor's characters are hashed
  // (no text joined per first visit)
  let h = seeds.get(experiment);
  if (h === undefined) {
    h = fnv1a(0x811c9dc5, `${experiment}:`);
    if (seeds.size >= 256) seeds.clear();
    seeds.set(experiment, h);
  }
  h = fnv1a(h, visitor);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}
const seeds = new Map<string, number>();
function fnv1a(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/** The variant a bucket falls in, by the weights (percent, adding up to 100). */
export function variantByWeight(bucket: number, variants: LiveExperiment['variants']): string {
  const total = variants.reduce((s, v) => s + v.weight, 0) || 1;
  let edge = 0;
  for (const v of variants) {
    edge += v.weight / total;
    if (bucket < edge) return v.id;
  }
  return variants[variants.length - 1]!.id;
}

/** The cookie's value, read from a Cookie header: the visitor and their variants by experiment (undefined without a valid one). */
export function readAssignments(cookieHeader: string | undefined): { visitor: string; chosen: ReadonlyMap<string, string> } | undefined {
  const value = cookieValue(cookieHeader, EXPERIMENT_COOKIE);
  if (!value) return undefined;
  const [visitor = '', ...pairs] = value.split('|');
  if (!VISITOR.test(visitor)) return undefined;
  const chosen = new Map<string, string>();
  for (const pair of pairs) {
    const colon = pair.indexOf(':');
    // an experiment named twice keeps its first entry, as heldIn (the front door's read) does: the
    // exposure counted from this must be the variant the page was served
    if (colon > 0 && !chosen.has(pair.slice(0, colon))) chosen.set(pair.slice(0, colon), pair.slice(colon + 1));
  }
  return { visitor, chosen };
}

/**
 * The variant the experiments' cookie holds for one experiment, read without taking the cookie
 * apart (what the front door asks on every request for a page under an experiment); undefined
 * without a valid cookie or an entry for it.
 */
export const assignedIn = (cookieHeader: string | undefined, experiment: string): string | undefined => heldIn(cookieHeader, cookieNeedle(experiment));

/** What marks an experiment's entry in the cookie's value: made once per experiment by whoever reads it often. */
export const cookieNeedle = (experiment: string): string => `|${experiment}:`;

const VISITOR_FIRST = /^[0-9a-f]{16,32}(?:\||$)/;

/** assignedIn with the experiment's needle made beforehand: no more than the variant's text is made per call. */
export function heldIn(cookieHeader: string | undefined, needle: string): string | undefined {
  const value = cookieValue(cookieHeader, EXPERIMENT_COOKIE);
  if (!value || !VISITOR_FIRST.test(value)) return undefined;
  const at = value.indexOf(needle);
  if (at < 0) return undefined;
  const end = value.indexOf('|', at + needle.length);
  return value.slice(at + needle.length, end < 0 ? undefined : end);
}

/** One cookie's value in a Cookie header (the first of that name). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const key = `${name}=`;
  let at = header.startsWith(key) ? 0 : -1;
  if (at < 0) {
    const spaced = header.indexOf(`; ${key}`);
    const tight = spaced < 0 ? header.indexOf(`;${key}`) : -1;
    if (spaced < 0 && tight < 0) return undefined;
    at = spaced >= 0 ? spaced + 2 : tight + 1;
  }
  const start = at + key.length;
  const end = header.indexOf(';', start);
  return header.slice(start, end < 0 ? undefined : end).trim();
}

/** Whether a variant id is one of the experiment's. */
const hasVariant = (e: LiveExperiment, id: string | undefined): id is string => id !== undefined && e.variants.some((v) => v.id === id);

/** What a visitor with this cookie variant (if any) is served of an experiment at `now` (`visitor`: their id, or how to make one). */
export function servingOf(e: LiveExperiment, mine: string | undefined, visitor: string | (() => string), now: number): Serving {
  if (e.status === 'stopped') return { variant: hasVariant(e, e.winner) ? e.winner : e.variants[0]!.id, counted: false, assigned: false };
  if (e.status === 'paused' || now < e.startMs || (e.endMs !== undefined && now >= e.endMs))
    return { variant: e.variants[0]!.id, counted: false, assigned: false };
  if (hasVariant(e, mine)) return { variant: mine, counted: true, assigned: false };
  // the visitor's id is made only here, when one is assigned
  const id = typeof visitor === 'string' ? visitor : visitor();
  return { variant: variantByWeight(bucketOf(id, e.id), (e.allocation ?? e).variants), counted: true, assigned: true, visitor: id };
}

/**
 * The Set-Cookie value that keeps a visitor's assignments: theirs for the brand's live
 * experiments (an experiment that no longer exists is dropped) with this one's variant.
 */
export function assignmentCookie(visitor: string, chosen: ReadonlyMap<string, string>, experiment: string, variant: string, live: ReadonlySet<string>): string {
  // one text grown in place, no lists: a first visit (nothing chosen) makes this on every request
  let value = visitor;
  for (const [id, v] of chosen) if (id !== experiment && live.has(id)) value += `|${id}:${v}`;
  return `${EXPERIMENT_COOKIE}=${value}|${experiment}:${variant}; Path=/; Max-Age=${EXPERIMENT_COOKIE_MAX_AGE}; SameSite=Lax; HttpOnly`;
}
