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
