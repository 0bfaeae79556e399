/**
 * Timing and keyboard rules of the location search panel and the address autocomplete
 * (SPEC §4, §5, §9): typing is debounced 500 ms and empty or whitespace-only text sends
 * nothing; the panel's input is focused 100 ms after it opens; suggestions hide 500 ms after
 * the field loses focus (and stay when focus comes back first). Framework-free, with the
 * timers passed in so the tests can drive them.
 */
import { searchText } from '../geocoder/client';

export const SEARCH_DEBOUNCE_MS = 500;
export const SUGGESTION_HIDE_MS = 500;
export const SEARCH_FOCUS_DELAY_MS = 100;

type Timers = { setTimeout: (fn: () => void, ms: number) => unknown; clearTimeout: (id: never) => void };
const realTimers = (): Timers => globalThis as unknown as Timers;

/**
 * The text to search for, settled: `onSettled(text)` 500 ms after the last change; an empty or
 * whitespace-only value settles at once as undefined (results clear, nothing is sent).
 */
export function createSearchDebouncer(onSettled: (text: string | undefined) => void, ms = SEARCH_DEBOUNCE_MS, timers: Timers = realTimers()) {
  let id: unknown;
  const cancel = () => timers.clearTimeout(id as never);
  return {
    change(value: string) {
      cancel();
      const text = searchText(value);
      if (text === undefined) onSettled(undefined);
      else id = timers.setTimeout(() => onSettled(text), ms);
    },
    cancel,
  };
}

/** Hide after blur, unless focus comes back within `ms`. */
export function createDelayedHide(onHide: () => void, ms = SUGGESTION_HIDE_MS, timers: Timers = realTimers()) {
  let id: unknown;
  const cancel = () => timers.clearTimeout(id as never);
  return {
    blur() {
      cancel();
      id = timers.setTimeout(onHide, ms);
    },
    focus: cancel,
    cancel,
  };
}

/** The autocomplete's list keyboard (WAI-ARIA combobox with a listbox popup). `active` -1 = none. */
export interface SuggestionKeyResult {
  active: number;
  open: boolean;
  /** index to choose (Enter on a highlighted option) */
  choose?: number;
  handled: boolean;
}

export function suggestionKey(key: string, state: { active: number; open: boolean }, count: number): SuggestionKeyResult {
  const { active, open } = state;
  if (!count) return { active: -1, open, handled: false };
  switch (key) {
    case 'ArrowDown':
      return { active: open ? (active + 1) % count : 0, open: true, handled: true };
    case 'ArrowUp':
      return { active: open ? (active <= 0 ? count - 1 : active - 1) : count - 1, open: true, handled: true };
    case 'Home':
    case 'End':
      return open ? { active: key === 'Home' ? 0 : count - 1, open, handled: true } : { active, open, handled: false };
    case 'Enter':
      return open && active >= 0 ? { active, open: false, choose: active, handled: true } : { active, open, handled: false };
    case 'Escape':
      return open ? { active: -1, open: false, handled: true } : { active, open, handled: false };
    default:
      return { active, open, handled: false };
  }
}

/** The part of a document's permissions policy the geolocation button reads. */
interface PolicyView {
  allowsFeature(feature: string): boolean;
}

/**
 * May a document ask for the position? The server allows geolocation only on pages with the
 * "Use my location" button (Permissions-Policy), and a browser keeps the policy of the page a
 * visit first loaded for every page the router shows after it. The standard
 * `document.permissionsPolicy` says so where it exists, Chromium's older `document.featurePolicy`
 * where only it does. A browser with neither (Firefox, Safari) does not apply the
 * Permissions-Policy header to a page at all: yes.
 */
export function documentAllowsGeolocation(doc: object): boolean {
  const { permissionsPolicy, featurePolicy } = doc as { permissionsPolicy?: unknown; featurePolicy?: unknown };
  const policy = [permissionsPolicy, featurePolicy].find(
    (p): p is PolicyView => typeof p === 'object' && p !== null && typeof (p as Partial<PolicyView>).allowsFeature === 'function',
  );
  return policy ? policy.allowsFeature('geolocation') : true;
}
