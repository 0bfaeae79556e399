'use client';
import { useState } from 'react';
import { locateRegion, type GeocoderEndpoint } from '../../engine/browser/geocoder/client';
import { goTo, placePagePath } from './goToPlace';

/**
 * "Use my location" (SPEC §2, §8): the browser's position, reverse-geocoded to a state, opens
 * the brand's state page. Permission denied, no position or a failed lookup are logged only:
 * nothing is shown and nothing happens.
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
  const locate = () => {
    if (busy) return;
    if (!('geolocation' in navigator)) {
      console.warn('[geolocation] not available in this browser');
      return;
    }
    setBusy(true);
    navigator.geolocation.getCurrentPosition(
      async ({ coords }) => {
        try {
          const region = await locateRegion(geocoder, coords.longitude, coords.latitude);
          const path = await placePagePath({ state: region.shortLowerState }, loanType);
          onFound?.();
          await goTo(path);
        } catch (err) {
          console.warn('[geolocation] lookup failed', err);
        } finally {
          setBusy(false);
        }
      },
      (err) => {
        console.warn('[geolocation]', err.message);
        setBusy(false);
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
