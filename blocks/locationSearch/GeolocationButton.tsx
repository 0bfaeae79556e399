'use client';
import { useEffect, useRef, useState } from 'react';
import { locateRegion, type GeocoderEndpoint } from '../../engine/browser/geocoder/client';
import { documentAllowsGeolocation } from '../../engine/browser/widgets/locationSearch';
import { goTo, placePagePath } from './goToPlace';

/** sessionStorage: the page (path and query) whose button is to look the position up once it has loaded again */
const LOCATE_AFTER_LOAD = 'locateAfterLoad';

/** Shown on the button (and told to screen readers) while the browser looks the position up. */
const LOCATING = 'Locating…';

const herePath = () => window.location.pathname + window.location.search;

/** Whether this page was loaded again to look the position up (the mark is used up). */
function takeLocateMark(): boolean {
  try {
    const marked = sessionStorage.getItem(LOCATE_AFTER_LOAD);
    if (marked === null) return false;
    sessionStorage.removeItem(LOCATE_AFTER_LOAD);
    return marked === herePath();
  } catch {
    return false;
  }
}

/** Loads this page again from the server, which allows geolocation on it, to look the position up there; false when it cannot be marked. */
function reloadToLocate(): boolean {
  try {
    sessionStorage.setItem(LOCATE_AFTER_LOAD, herePath());
  } catch {
    return false;
  }
  // Without the panel's hash: the lookup opens the state page, the panel is not needed again.
  window.location.replace(herePath());
  return true;
}

/**
 * "Use my location" (SPEC §2, §8): the browser's position, reverse-geocoded to a state, opens
 * the brand's state page. Permission denied, no position or a failed lookup are logged only:
 * nothing is shown and nothing happens. An answer that comes after the borrower has moved on (another
 * page, or the panel closed) is dropped: a position can take seconds, and a late one must not take
 * them away from the page they chose meanwhile. Reached by a link from a page that may not ask
 * for the position, a tap loads the page again (where it may) and the lookup starts there.
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
  /** `reloaded`: this page was loaded again for the lookup (never load it again: no loop) */
  const locate = (reloaded = false) => {
    if (busy) return;
    if (!('geolocation' in navigator)) {
      console.warn('[geolocation] not available in this browser');
      return;
    }
    if (!reloaded && !documentAllowsGeolocation(document) && reloadToLocate()) return;
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
  // The tap that loaded this page again (reloadToLocate) is answered here.
  const arrivedToLocate = useRef<boolean | null>(null);
  useEffect(() => {
    // read once (React's development mode runs an effect twice)
    arrivedToLocate.current ??= takeLocateMark();
    if (!arrivedToLocate.current) return;
    // a task of its own, as the tap's would be, not part of the page's first render
    const start = setTimeout(() => {
      arrivedToLocate.current = false;
      locate(true);
    });
    return () => clearTimeout(start);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);
  return (
    <>
      {/* Still focusable while busy (aria-disabled, not disabled): focus stays where the borrower left it. */}
      <button
        type="button"
        onClick={() => locate()}
        disabled={disabled}
        aria-busy={busy}
        aria-disabled={busy || undefined}
        className={`inline-flex min-h-11 items-center gap-2 rounded-md px-3 font-medium text-brand hover:bg-slate-100 aria-disabled:cursor-wait ${className}`}
      >
        {busy ? (
          <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" className="animate-spin">
            <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
            <path d="M21 12a9 9 0 0 0-9-9" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
          </svg>
        ) : (
          <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2">
            <circle cx="12" cy="12" r="4" />
            <path d="M12 2v3M12 19v3M2 12h3M19 12h3" strokeLinecap="round" />
          </svg>
        )}
        {busy ? LOCATING : 'Use my location'}
      </button>
      {/* Always in the page, so that a screen reader hears the change (the position can take seconds). */}
      <span role="status" className="sr-only">
        {busy ? LOCATING : ''}
      </span>
    </>
  );
}
