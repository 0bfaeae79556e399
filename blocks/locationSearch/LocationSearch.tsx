'use client';
import { useCallback, useEffect, useState, type ComponentType } from 'react';
import type { BlockProps } from '../types';
import { brandVars } from '../chrome/brandVars';
import { Section } from '../chrome/Section';
import { useHydrated } from '../chrome/useHydrated';
import { GeolocationButton } from './GeolocationButton';
import type { SearchPanelProps } from './SearchPanel';

/** The header search button links here with this hash; the panel opens on arrival (or on the hash change). */
export const OPEN_HASH = '#location-search';

/**
 * The location search block: a button that opens the search panel (its code, with SWR, is
 * fetched on the first opening) and "Use my location".
 */
export default function LocationSearch({ block, brand }: BlockProps<'locationSearch'>) {
  const [Panel, setPanel] = useState<ComponentType<SearchPanelProps> | null>(null);
  const [open, setOpen] = useState(false);
  const geolocation = block.geolocation ?? true;
  // Usable once its script runs: until then the buttons are disabled, not dead (same size, no jump).
  const ready = useHydrated();

  const openPanel = useCallback(() => {
    void import('./SearchPanel').then((m) => {
      setPanel(() => m.SearchPanel);
      setOpen(true);
    });
  }, []);
  const close = useCallback(() => {
    setOpen(false);
    if (window.location.hash === OPEN_HASH) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  }, []);

  useEffect(() => {
    const fromHash = () => window.location.hash === OPEN_HASH && openPanel();
    fromHash();
    window.addEventListener('hashchange', fromHash);
    return () => window.removeEventListener('hashchange', fromHash);
  }, [openPanel]);

  return (
    <Section heading={block.heading ?? 'Search by city or ZIP code'}>
      {block.text && <p className="mb-3 text-slate-700">{block.text}</p>}
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <button
          type="button"
          aria-haspopup="dialog"
          disabled={!ready}
          onClick={openPanel}
          className="flex min-h-11 flex-1 items-center gap-2 rounded-md border border-slate-500 bg-white px-3 py-2 text-left text-slate-700 hover:border-slate-700"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <circle cx="9" cy="9" r="6" />
            <path d="M14 14l4 4" />
          </svg>
          {block.buttonLabel ?? 'Enter a street, city, state, or ZIP code'}
        </button>
        {geolocation && <GeolocationButton geocoder={block.data.geocoder} loanType={block.data.loanType} disabled={!ready} />}
      </div>
      {Panel && (
        <Panel
          visible={open}
          onClose={close}
          geocoder={block.data.geocoder}
          loanType={block.data.loanType}
          geolocation={geolocation}
          style={brandVars(brand)}
        />
      )}
    </Section>
  );
}
