/**
 * The amount dropdown's state (SPEC §4: opens on click, closes on blur) with the keyboard of the
 * WAI-ARIA select-only combobox pattern: arrows, Home/End, PageUp/PageDown, Enter/Space, Escape,
 * Tab, Alt+arrows and type-ahead. Pure: state + event → next state.
 */

import { produce } from './copyOnWrite';

export interface ListboxState {
  open: boolean;
  /** the highlighted option (aria-activedescendant) */
  active: number;
  /** the chosen option */
  selected: number;
  /** type-ahead buffer and when its last key came */
  typed: string;
  typedAt: number;
}

export type ListboxEvent =
  | { type: 'click' }
  | { type: 'blur' }
  | { type: 'pick'; index: number }
  | { type: 'hover'; index: number }
  | { type: 'key'; key: string; altKey?: boolean; ctrlKey?: boolean; metaKey?: boolean; now?: number };

export const TYPEAHEAD_MS = 500;
const PAGE = 10;

export const initialListbox = (selected: number): ListboxState => ({ open: false, active: selected, selected, typed: '', typedAt: 0 });

/** What type-ahead compares: the label without currency signs, separators and spaces, lower-case ("$1,500" → "1500"). */
export const typeaheadText = (label: string): string => label.toLowerCase().replace(/[^a-z0-9]/g, '');

function matchTypeahead(labels: readonly string[], from: number, buffer: string): number | undefined {
  const n = labels.length;
  // A repeated single character cycles through the options starting with it.
  const cycling = buffer.length > 1 && buffer.split('').every((c) => c === buffer[0]);
  const needle = cycling ? buffer[0]! : buffer;
  const start = cycling || buffer.length === 1 ? from + 1 : from;
  for (let i = 0; i < n; i++) {
    const index = (start + i) % n;
    if (typeaheadText(labels[index]!).startsWith(needle)) return index;
  }
  return undefined;
}

/**
 * The next state and whether the event was handled (the component then prevents the key's
 * default action). `labels` are the options' visible texts.
 */
export function listboxReducer(state: ListboxState, event: ListboxEvent, labels: readonly string[]): { state: ListboxState; handled: boolean } {
  const last = labels.length - 1;
  let handled = true;
  const next = produce(state, (s) => {
    const clamp = (i: number) => Math.max(0, Math.min(last, i));
    const open = (active = s.selected) => {
      s.open = true;
      s.active = clamp(active);
    };
    const choose = () => {
      s.selected = s.active;
      s.open = false;
    };
    switch (event.type) {
      case 'click':
        if (s.open) s.open = false;
        else open();
        return;
      case 'blur':
        s.open = false;
        s.active = s.selected;
        return;
      case 'pick':
        s.active = clamp(event.index);
        choose();
        return;
      case 'hover':
        if (s.open) s.active = clamp(event.index);
        return;
      case 'key': {
        const { key, altKey } = event;
        if (event.ctrlKey || event.metaKey) {
          handled = false;
          return;
        }
        const char = key.length === 1 ? typeaheadText(key) : '';
        if (char) {
          const now = event.now ?? 0;
          const buffer = (now - s.typedAt < TYPEAHEAD_MS ? s.typed : '') + char;
          s.typed = buffer;
          s.typedAt = now;
          const found = matchTypeahead(labels, s.open ? s.active : s.selected, typeaheadText(buffer));
          if (!s.open) s.open = true;
          if (found !== undefined) s.active = found;
          return;
        }
        if (!s.open) {
          if (key === 'ArrowDown' || key === 'ArrowUp' || key === 'Enter' || key === ' ') open();
          else if (key === 'Home') open(0);
          else if (key === 'End') open(last);
          else handled = false;
          return;
        }
        switch (key) {
          case 'ArrowDown':
            s.active = clamp(s.active + 1);
            return;
          case 'ArrowUp':
            if (altKey) choose();
            else s.active = clamp(s.active - 1);
            return;
          case 'Home':
            s.active = 0;
            return;
          case 'End':
            s.active = last;
            return;
          case 'PageDown':
            s.active = clamp(s.active + PAGE);
            return;
          case 'PageUp':
            s.active = clamp(s.active - PAGE);
            return;
          case 'Enter':
          case ' ':
            choose();
            return;
          case 'Tab':
            // Tab keeps the highlighted option and lets focus move on (not prevented by the component).
            choose();
            handled = false;
            return;
          case 'Escape':
            s.open = false;
            s.active = s.selected;
            return;
          default:
            handled = false;
        }
      }
    }
  });
  return { state: next, handled };
}
