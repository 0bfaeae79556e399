'use client';
import { useEffect, useId, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import useSWR from 'swr';
import { fetchPlaces, placeSearchUrl, type GeocoderEndpoint } from '../../engine/browser/geocoder/client';
import type { SearchResult } from '../../engine/browser/geocoder/v5';
import { createSearchDebouncer, SEARCH_FOCUS_DELAY_MS } from '../../engine/browser/widgets/locationSearch';
import { Modal } from '../parts/Modal';
import { Spinner } from '../parts/Spinner';
import { GeolocationButton } from './GeolocationButton';
import { goTo, placePagePath } from './goToPlace';

export interface SearchPanelProps {
  visible: boolean;
  onClose: () => void;
  geocoder: GeocoderEndpoint;
  loanType: string;
  geolocation: boolean;
  /** the brand's colour variables (the dialog is rendered at the end of <body>) */
  style: CSSProperties;
}

export const PLACEHOLDER = 'Enter a street, city, state, or ZIP code to search';
/** Shown (not only announced) when a search finds nothing, so the visitor knows to try other words. */
export const noPlacesFound = (text: string) => `No places match “${text}”. Try a city, a state or a ZIP code.`;

/**
 * The location search panel (SPEC §2, §4, §8): a full-screen dialog (focus trapped, Escape =
 * Cancel) with the search field — focused 100 ms after opening, typing debounced 500 ms, empty
 * text sends nothing — a clear button, Cancel, "Use my location" and the place-name results
 * (a spinner while fetching), or a message saying nothing matched. Choosing a result opens the
 * brand's page for the place and closes the panel. A failed search clears the results and is rethrown to the block's error boundary.
 */
export function SearchPanel({ visible, onClose, geocoder, loanType, geolocation, style }: SearchPanelProps) {
  const id = useId();
  const [value, setValue] = useState('');
  const [text, setText] = useState<string | undefined>();
  const [failure, setFailure] = useState<unknown>();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const debouncer = useRef<ReturnType<typeof createSearchDebouncer> | null>(null);
  debouncer.current ??= createSearchDebouncer(setText);
  useEffect(() => () => debouncer.current?.cancel(), []);

  useEffect(() => {
    if (!visible) return;
    const timer = setTimeout(() => input.current?.focus(), SEARCH_FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [visible]);

  // Keys per query; the same text is asked once; the last results stay while the next load.
  const { data, error, isLoading } = useSWR(text ? placeSearchUrl(geocoder, text) : null, (url: string) => fetchPlaces(url), {
    keepPreviousData: true,
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
    dedupingInterval: 60_000,
  });
  if (error) throw error;
  if (failure) throw failure;
  const results = text ? (data ?? []) : [];

  const change = (next: string) => {
    setValue(next);
    debouncer.current!.change(next);
  };
  const choose = async (result: SearchResult) => {
    if (!result.state) return;
    try {
      const path = await placePagePath({ state: result.state, ...(result.city ? { city: result.city } : {}) }, loanType);
      onClose();
      await goTo(path);
    } catch (err) {
      setFailure(err);
    }
  };

  const buttons = () => [...(list.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
  const onInputKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && results.length) {
      event.preventDefault();
      buttons()[0]?.focus();
    }
  };
  const onListKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const all = buttons();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    if (event.key === 'ArrowDown') all[Math.min(all.length - 1, at + 1)]?.focus();
    else if (event.key === 'ArrowUp') (at === 0 ? input.current : all[at - 1])?.focus();
    else if (event.key === 'Home') all[0]?.focus();
    else if (event.key === 'End') all[all.length - 1]?.focus();
    else return;
    event.preventDefault();
  };

  const titleId = `${id}-title`;
  const inputId = `${id}-input`;
  const listId = `${id}-results`;
  return (
    <Modal visible={visible} onClose={onClose} labelledBy={titleId} fullScreen style={style}>
      <div className="mx-auto flex max-w-3xl flex-col gap-2 p-4">
        <h2 id={titleId} className="text-lg font-bold">
          Search locations
        </h2>
        <div className="flex items-center gap-2">
          <div className="relative flex-1">
            <label htmlFor={inputId} className="sr-only">
              Street, city, state or ZIP code
            </label>
            <input
              ref={input}
              id={inputId}
              type="text"
              inputMode="search"
              enterKeyHint="search"
              autoComplete="off"
              spellCheck={false}
              placeholder={PLACEHOLDER}
              value={value}
              onChange={(e) => change(e.target.value)}
              onKeyDown={onInputKey}
              aria-controls={listId}
              className="min-h-11 w-full rounded-md border border-slate-500 py-2 pl-3 pr-12 text-slate-900 placeholder:text-slate-600"
            />
            {value && (
              <button
                type="button"
                aria-label="Clear search"
                onClick={() => {
                  change('');
                  input.current?.focus();
                }}
                className="absolute right-0 top-0 flex h-11 w-11 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100"
              >
                <svg aria-hidden="true" viewBox="0 0 20 20" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
                  <path d="M5 5l10 10M15 5L5 15" />
                </svg>
              </button>
            )}
          </div>
          <button type="button" onClick={onClose} className="min-h-11 px-3 font-medium text-brand underline underline-offset-2">
            Cancel
          </button>
        </div>
        {geolocation && <GeolocationButton geocoder={geocoder} loanType={loanType} onFound={onClose} className="self-start" />}
        <div className="min-h-6">{text && isLoading && <Spinner label="Searching…" />}</div>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- arrow keys from the result buttons inside, handled once for the list */}
        <ul id={listId} ref={list} aria-label="Places found" onKeyDown={onListKey} className="divide-y divide-slate-200">
          {results.map((r) => (
            <li key={r.id}>
              <button
                type="button"
                onClick={() => void choose(r)}
                className="flex min-h-11 w-full items-center px-2 py-2 text-left text-slate-900 hover:bg-slate-100 focus:bg-slate-100"
              >
                {r.place_name}
              </button>
            </li>
          ))}
        </ul>
        <p aria-live="polite" className={text && !isLoading && !results.length ? 'px-2 text-slate-800' : 'sr-only'}>
          {text && !isLoading ? (results.length ? `${results.length} ${results.length === 1 ? 'place' : 'places'} found` : noPlacesFound(text)) : ''}
        </p>
      </div>
    </Modal>
  );
}
