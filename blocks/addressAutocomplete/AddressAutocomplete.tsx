'use client';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import useSWR from 'swr';
import { addressSearchUrl, fetchAddressSuggestions } from '../../engine/browser/geocoder/client';
import type { AddressSuggestion } from '../../engine/browser/geocoder/v5';
import { createDelayedHide, createSearchDebouncer, suggestionKey } from '../../engine/browser/widgets/locationSearch';
import type { BlockProps } from '../types';
import { Section } from '../chrome/Section';
import { useHydrated } from '../chrome/useHydrated';
import { Spinner } from '../parts/Spinner';
import { CREDIT_NOTE } from '../parts/CashForm';

/**
 * Address autocomplete (SPEC §2, §4, §5): a combobox (WAI-ARIA APG, list autocomplete) whose
 * suggestions show on focus and while typing (debounced 500 ms, empty text skipped), hide 500 ms
 * after the field loses focus; a spinner while fetching. Choosing one fills the field with its
 * label (postcode, city, state) and the ZIP code, city and state fields, and clears the options;
 * the clear icon empties everything. It carries the credit note every amount and address widget does.
 */
export default function AddressAutocomplete({ block }: BlockProps<'addressAutocomplete'>) {
  const id = useId();
  const [value, setValue] = useState('');
  const [text, setText] = useState<string | undefined>();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [fields, setFields] = useState({ postcode: '', city: '', state: '' });
  const input = useRef<HTMLInputElement>(null);
  // Usable once its script runs: until then the field is disabled rather than silently ignoring typing.
  const ready = useHydrated();
  const timers = useRef<{ debounce: ReturnType<typeof createSearchDebouncer>; hide: ReturnType<typeof createDelayedHide> } | null>(null);
  timers.current ??= {
    debounce: createSearchDebouncer((t) => {
      setText(t);
      setActive(-1);
    }),
    hide: createDelayedHide(() => {
      setOpen(false);
      setActive(-1);
    }),
  };
  useEffect(() => () => (timers.current?.debounce.cancel(), timers.current?.hide.cancel()), []);

  const { data, isLoading } = useSWR(text ? addressSearchUrl(block.data.geocoder, text) : null, (url: string) => fetchAddressSuggestions(url), {
    keepPreviousData: true,
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
    dedupingInterval: 60_000,
  });
  const options = text ? (data ?? []) : [];
  const expanded = open && options.length > 0;
  // The highlight was moved over the previous answer while the next loaded; a shorter answer drops it.
  const current = active < options.length ? active : -1;

  const choose = (s: AddressSuggestion) => {
    timers.current!.debounce.cancel();
    setValue(s.label);
    setFields({ postcode: s.postcode, city: s.city, state: s.state });
    setText(undefined);
    setOpen(false);
    setActive(-1);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const next = suggestionKey(event.key, { active: current, open: expanded }, options.length);
    if (!next.handled) return;
    event.preventDefault();
    // Escape that closed the list must not also close a dialog around it.
    event.stopPropagation();
    setActive(next.active);
    setOpen(next.open);
    if (next.choose !== undefined) choose(options[next.choose]!);
  };

  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-option-${i}`;
  const field = (name: 'postcode' | 'city' | 'state', label: string, autoComplete: string, width: string) => (
    <div className={width}>
      <label htmlFor={`${id}-${name}`} className="block font-medium text-slate-800">
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        name={name}
        autoComplete={autoComplete}
        value={fields[name]}
        onChange={(e) => setFields((f) => ({ ...f, [name]: e.target.value }))}
        className="mt-1 min-h-11 w-full rounded-md border border-slate-500 px-3 py-2"
      />
    </div>
  );

  return (
    <Section heading={block.heading ?? 'Your address'}>
      <div className="rounded-lg border border-slate-200 p-4">
        <label htmlFor={inputId} className="block font-medium text-slate-800">
          {block.label ?? 'Street address or ZIP code'}
        </label>
        <div className="relative mt-1">
          <input
            ref={input}
            id={inputId}
            name="address"
            type="text"
            role="combobox"
            disabled={!ready}
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            {...(expanded && current >= 0 ? { 'aria-activedescendant': optionId(current) } : {})}
            autoComplete="off"
            spellCheck={false}
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setOpen(true);
              timers.current!.debounce.change(e.target.value);
            }}
            onFocus={() => {
              timers.current!.hide.focus();
              setOpen(true);
            }}
            onBlur={() => timers.current!.hide.blur()}
            onKeyDown={onKeyDown}
            className="min-h-11 w-full rounded-md border border-slate-500 py-2 pl-3 pr-20 text-slate-900"
          />
          <div className="absolute right-0 top-0 flex h-11 items-center">
            {text && isLoading && <Spinner label="Looking up addresses…" className="px-1" />}
            {value && (
              <button
                type="button"
                aria-label="Clear address"
                onClick={() => {
                  timers.current!.debounce.change('');
                  setValue('');
                  setFields({ postcode: '', city: '', state: '' });
                  input.current?.focus();
                }}
                className="flex h-11 w-11 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100"
              >
                <svg aria-hidden="true" viewBox="0 0 20 20" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
                  <path d="M5 5l10 10M15 5L5 15" />
                </svg>
              </button>
            )}
          </div>
          <ul
            id={listId}
            role="listbox"
            aria-label="Address suggestions"
            hidden={!expanded}
            className="absolute left-0 right-0 top-full z-20 mt-1 max-h-80 overflow-y-auto rounded-md border border-slate-300 bg-white py-1 shadow-lg"
          >
            {options.map((s, i) => (
              // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- the keys are the combobox input's (aria-activedescendant); a click is the pointer's way to choose
              <li
                key={s.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === current}
                // Keep focus in the field: the choice is made on click, before blur would hide the list.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(s)}
                onMouseMove={() => setActive(i)}
                className={`flex min-h-11 cursor-pointer flex-col justify-center px-3 py-1 ${i === current ? 'bg-slate-200' : ''}`}
              >
                <span className="text-slate-900">{s.label}</span>
                <span className="text-sm text-slate-700">{s.place_name}</span>
              </li>
            ))}
          </ul>
        </div>
        <div className="mt-3 flex flex-col gap-3 sm:flex-row">
          {field('postcode', 'ZIP code', 'postal-code', 'sm:w-32')}
          {field('city', 'City', 'address-level2', 'flex-1')}
          {field('state', 'State', 'address-level1', 'sm:w-24')}
        </div>
        <p className="mt-3 text-sm text-slate-700">{CREDIT_NOTE}</p>
      </div>
    </Section>
  );
}
