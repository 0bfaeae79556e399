'use client';
import { useEffect, useRef, useState } from 'react';
import { locateRegion, type GeocoderEndpoint } from '../../engine/browser/geocoder/client';
import { goTo, placePagePath } from './goToPlace';

/**
 * "Use my location" (SPEC §2, §8): the browser's position, reverse-geocoded to a state, opens
 * the brand's state page. Permission denied, no position or a failed lookup are logged only:
 * nothing is shown and nothing happens. An answer that comes after the borrower has moved on (another
 * page, or the panel closed) is dropped: a position can take seconds, and a late one must not take
 * them away from the page they chose meanwhile.
 */
export function GeolocationButton({
  geocoder,
  loanType,
  onFound,
  disabled = false,
  className = '',
}: {
  geocoder: GeocoderEndpoint;
  loanType: string;
  onFound?: () => void;
  disabled?: boolean;
  className?: string;
}) {
  const [busy, setBusy] = useState(false);
  /** the lookup under way, if any: set `stale` to drop its answer */
  const lookup = useRef<{ stale: boolean } | null>(null);
  // The button goes (the panel closed, another page): whatever answer comes is for no one.
  useEffect(
    () => () => {
      if (lookup.current) lookup.current.stale = true;
    },
    [],
  );
  const locate = () => {
    if (busy) return;
    if (!('geolocation' in navigator)) {
      console.warn('[geolocation] not available in this browser');
      return;
    }
    setBusy(true);
    const current = { stale: false };
    lookup.current = current;
    // The borrower follows a link (or Back) while the position is looked up: that page is theirs.
    const onRouteChange = () => (current.stale = true);
    const { events } = window.next.router;
    events.on('routeChangeStart', onRouteChange);
    const done = () => {
      events.off('routeChangeStart', onRouteChange);
      if (lookup.current === current) lookup.current = null;
      setBusy(false);
    };
    navigator.geolocation.getCurrentPosition(
      async ({ coords }) => {
        try {
          const region = await locateRegion(geocoder, coords.longitude, coords.latitude);
          const path = await placePagePath({ state: region.shortLowerState }, loanType);
          if (current.stale) {
            console.warn('[geolocation] answer dropped: the visitor has moved on');
            return;
          }
          done();
          onFound?.();
          await goTo(path);
        } catch (err) {
          console.warn('[geolocation] lookup failed', err);
        } finally {
          done();
        }
      },
      (err) => {
        console.warn('[geolocation]', err.message);
        done();
      },
      { timeout: 15_000, maximumAge: 600_000 },
    );
  };
  return (
    <button
      type="button"
      onClick={locate}
      disabled={disabled}
      aria-busy={busy}
      className={`inline-flex min-h-11 items-center gap-2 rounded-md px-3 font-medium text-brand hover:bg-slate-100 ${className}`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2">
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v3M12 19v3M2 12h3M19 12h3" strokeLinecap="round" />
      </svg>
      Use my location
    </button>
  );
}
