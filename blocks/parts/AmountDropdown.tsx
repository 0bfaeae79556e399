'use client';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { initialListbox, listboxReducer, type ListboxEvent } from '../../engine/browser/widgets/listbox';
import { funnel } from '../chrome/funnel';

export interface AmountOption {
  value: number;
  label: string;
}

interface Props {
  id: string;
  /** visible label text */
  label: string;
  options: readonly AmountOption[];
  defaultValue: number;
  onChange: (value: number) => void;
  /** name of a hidden input carrying the value, for forms that also work without script */
  name?: string;
  autoFocus?: boolean;
  className?: string;
}

/**
 * The amount dropdown (SPEC §4, §9): a select-only combobox (WAI-ARIA APG) — opens on click,
 * closes on blur, full keyboard support; the rules are engine/browser/widgets/listbox.ts.
 */
export function AmountDropdown({ id, label, options, defaultValue, onChange, name, autoFocus, className = '' }: Props) {
  const [state, setState] = useState(() =>
    initialListbox(
      Math.max(
        0,
        options.findIndex((o) => o.value === defaultValue),
      ),
    ),
  );
  const labels = options.map((o) => o.label);
  const labelId = `${id}-label`;
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-option-${i}`;

  const dispatch = (event: ListboxEvent): boolean => {
    const { state: next, handled } = listboxReducer(state, event, labels);
    if (next !== state) setState(next);
    if (next.selected !== state.selected) {
      onChange(options[next.selected]!.value);
      funnel({ type: 'amount_used' }, { once: true });
    }
    return handled;
  };

  useEffect(() => {
    if (state.open) document.getElementById(optionId(state.active))?.scrollIntoView({ block: 'nearest' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.open, state.active]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const handled = dispatch({ type: 'key', key: event.key, altKey: event.altKey, ctrlKey: event.ctrlKey, metaKey: event.metaKey, now: event.timeStamp });
    if (handled) {
      event.preventDefault();
      // Escape that closed the list must not also close a dialog around it.
      event.stopPropagation();
    }
  };

  const selected = options[state.selected]!;
  return (
    <div className={`relative ${className}`}>
      <span id={labelId} className="field-label">
        {label}
      </span>
      <div
        id={id}
        role="combobox"
        tabIndex={0}
        aria-labelledby={labelId}
        aria-haspopup="listbox"
        aria-expanded={state.open}
        aria-controls={listId}
        {...(state.open ? { 'aria-activedescendant': optionId(state.active) } : {})}
        {...(autoFocus ? { 'data-autofocus': '' } : {})}
        onClick={() => dispatch({ type: 'click' })}
        onKeyDown={onKeyDown}
        onBlur={() => dispatch({ type: 'blur' })}
        className="amount-combo"
      >
        <span>{selected.label}</span>
        <svg aria-hidden="true" viewBox="0 0 20 20" width="16" height="16" fill="currentColor" className={state.open ? 'rotate-180' : ''}>
          <path d="M5.5 7.5 10 12l4.5-4.5z" />
        </svg>
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-labelledby={labelId}
        tabIndex={-1}
        hidden={!state.open}
        onMouseDown={(e) => e.preventDefault()}
        className="amount-list"
      >
        {/* Options only while open: nineteen of them were ~2.8 KB of every page's HTML, useless before the script runs. */}
        {state.open &&
          options.map((o, i) => (
            // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- the keys are the listbox's (aria-activedescendant); a click is the pointer's way to pick
            <li
              key={o.value}
              id={optionId(i)}
              role="option"
              aria-selected={i === state.active}
              onClick={() => dispatch({ type: 'pick', index: i })}
              onMouseMove={() => i !== state.active && dispatch({ type: 'hover', index: i })}
              className={`flex min-h-11 cursor-pointer items-center px-3 py-1.5 ${i === state.active ? 'bg-brand text-white' : 'text-slate-900'} ${i === state.selected ? 'font-bold' : ''}`}
            >
              {o.label}
            </li>
          ))}
      </ul>
      {name && <input type="hidden" name={name} value={selected.value} />}
    </div>
  );
}
