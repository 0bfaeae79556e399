'use client';
import { useSyncExternalStore } from 'react';
import type { BlockProps } from '../types';
import { browserPrivacyState, type PrivacyState } from '../../engine/browser/privacy';
import { optInCookie, optOutCookie } from '../../engine/browser/privacyCookie';
import { denyAds } from '../chrome/thirdParties';

const STATUS: Record<PrivacyState, string> = {
  'opted-in': 'You have not opted out. We may share information about your visit with advertising partners.',
  'opted-out': 'You have opted out. We do not sell or share your personal information, and this browser remembers your choice.',
  gpc: 'Your browser sends Global Privacy Control, so you are opted out: we do not sell or share your personal information. To change this, turn Global Privacy Control off in your browser.',
};

const readState = (): PrivacyState => browserPrivacyState((navigator as { globalPrivacyControl?: unknown }).globalPrivacyControl, document.cookie);
// The cookie changes only through this control's buttons, which tell these listeners.
const cookieListeners = new Set<() => void>();
const watchCookie = (listener: () => void) => {
  cookieListeners.add(listener);
  return () => void cookieListeners.delete(listener);
};
const cookieChanged = () => cookieListeners.forEach((listener) => listener());

/**
 * The opt-out control (CCPA/CPRA "Do Not Sell or Share"). The page is cached, so the choice is
 * read in the browser after mount; until then the status says it is being checked. Rules:
 * engine/browser/privacy.ts. The next page (and any lead) honours the cookie; this page tells the tag
 * manager at once (consent mode update).
 */
export default function PrivacyChoice({ block }: BlockProps<'privacyChoice'>) {
  // undefined in the cached HTML and while it hydrates ("checking"), then what this browser says.
  const state = useSyncExternalStore<PrivacyState | undefined>(watchCookie, readState, () => undefined);
  const secure = () => window.location.protocol === 'https:';
  const optOut = () => {
    document.cookie = optOutCookie(secure());
    if (window.dataLayer) denyAds('update');
    cookieChanged();
  };
  const optIn = () => {
    document.cookie = optInCookie(secure());
    cookieChanged();
  };
  const headingId = `${block.key}-heading`;
  const button =
    'inline-flex min-h-11 min-w-11 items-center justify-center rounded-md px-5 py-2 font-semibold focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-slate-900 disabled:cursor-not-allowed disabled:opacity-60';
  return (
    <section aria-labelledby={headingId} className="mx-auto my-6 max-w-3xl px-4">
      <div className="rounded-lg border border-slate-200 p-6 shadow-sm">
        <h2 id={headingId} className="text-xl font-bold text-slate-900">
          {block.heading ?? 'Your choice'}
        </h2>
        <p role="status" className="mt-3 min-h-12 text-slate-800" data-privacy-state={state ?? 'unknown'}>
          {state ? STATUS[state] : 'Checking the choice saved in this browser…'}
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          {state !== 'opted-out' && state !== 'gpc' && (
            <button type="button" onClick={optOut} disabled={state === undefined} className={`${button} bg-[var(--brand-theme)] text-white`}>
              Opt out of sale and sharing
            </button>
          )}
          {state === 'opted-out' && (
            <button type="button" onClick={optIn} className={`${button} border border-slate-400 bg-white text-slate-900`}>
              Opt back in
            </button>
          )}
        </div>
      </div>
    </section>
  );
}
