/**
 * The tag manager and the pixel (SPEC §2, §7), in every page's script — so kept to a few hundred
 * bytes; the pixel's own code is a lazy chunk.
 * - the container script (gtm.js?id=…) is requested only after the load event, once the browser
 *   is idle: it never competes with the page's own first paint and scripts. dataLayer gets its
 *   start (consent defaults, `gtm.js`) and the first `pageview` with the page path at that moment —
 *   or at the first client-side route change if sooner — and a `pageview` on every route change.
 *   Not at mount: whether the visitor opted out is read from document.cookie, whose first read of
 *   a page load waits on the browser process (./deferral.ts).
 * - the pixel (general brands) loads at the same moment, from ./pixel, and counts a page view
 *   on each route change.
 * - opted out (Global Privacy Control, or the Do Not Sell choice — engine/browser/privacy.ts): no pixel
 *   and no pixel page views; the tag manager starts with Google's consent mode denying ads
 *   storage and personalisation, with ads data redaction on and URL passthrough off, and the
 *   page paths it is given carry no click ids.
 * No gtmId and no pixel id → nothing is added at all.
 */
import { browserPrivacyState, OPT_OUT_COOKIE, pagePathFor } from '../../engine/browser/privacy';
import { whenIdle } from './visitTracking';

declare global {
  interface Window {
    dataLayer?: unknown[];
    __reportError?: (error: unknown, kind: string) => void;
  }
}

export const GTM_SCRIPT = 'https://www.googletagmanager.com/gtm.js';

export const optedOutHere = (): boolean =>
  browserPrivacyState((navigator as { globalPrivacyControl?: unknown }).globalPrivacyControl, document.cookie) !== 'opted-in';

type CookieStoreLike = { get(name: string): Promise<{ value?: string } | null | undefined> };

/**
 * The same answer without blocking the main thread: the Cookie Store API asks the browser process
 * asynchronously, where document.cookie's first read of a page load waits for its answer (1–18 ms
 * measured on a quiet moment, over 100 ms on a busy one). document.cookie where the API is missing.
 */
export async function optedOutSoon(): Promise<boolean> {
  const gpc = (navigator as { globalPrivacyControl?: unknown }).globalPrivacyControl;
  const store = (window as { cookieStore?: CookieStoreLike }).cookieStore;
  if (gpc === true) return true;
  if (!store) return optedOutHere();
  try {
    const cookie = await store.get(OPT_OUT_COOKIE);
    return browserPrivacyState(gpc, cookie?.value === undefined ? '' : `${OPT_OUT_COOKIE}=${cookie.value}`) !== 'opted-in';
  } catch {
    return optedOutHere();
  }
}

/** gtag()-style commands (consent mode) are Arguments objects in the dataLayer, not arrays. */
export function gtag(..._args: unknown[]): void {
  // eslint-disable-next-line prefer-rest-params
  (window.dataLayer ||= []).push(arguments);
}

/** Google's consent mode for an opted-out visitor (also sent as an update when they opt out). */
export const denyAds = (command: 'default' | 'update') =>
  gtag('consent', command, { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' });

/** After the load event, when the browser is idle (at most 3 s later); returns a cancel function. */
export function afterInteractive(run: () => void): () => void {
  let cancel = () => {};
  const idle = () => (cancel = whenIdle(run));
  if (document.readyState === 'complete') idle();
  else {
    window.addEventListener('load', idle, { once: true });
    cancel = () => window.removeEventListener('load', idle);
  }
  return () => cancel();
}

export function installThirdParties(tags: { gtmId?: string | undefined; pixelId?: string | undefined }): () => void {
  const { gtmId, pixelId } = tags;
  if (!gtmId && !pixelId) return () => {};
  let pixelView: (() => void) | undefined;
  let pendingPixelViews = 0;
  let cancelled = false;
  let started = false;
  const firstPage = location.pathname + location.search;
  const pushView = (url: string, out: boolean) => {
    if (gtmId) window.dataLayer!.push({ event: 'pageview', page: pagePathFor(url, out) });
    if (pixelId && !out) pixelView ? pixelView() : pendingPixelViews++;
  };
  // Consent defaults first, then the container's start, then the page views in their order.
  const start = (out: boolean) => {
    if (started) return;
    started = true;
    if (gtmId) {
      if (out) {
        denyAds('default');
        gtag('set', 'ads_data_redaction', true);
        gtag('set', 'url_passthrough', false);
      }
      (window.dataLayer ||= []).push({ 'gtm.start': Date.now(), event: 'gtm.js', gtmId });
    }
    pushView(firstPage, out);
  };
  const view = (url: string) => {
    const out = optedOutHere();
    start(out);
    pushView(url, out);
  };
  window.next.router.events.on('routeChangeComplete', view);
  const stopWaiting = afterInteractive(
    () =>
      void optedOutSoon().then((out) => {
        if (cancelled) return;
        start(out);
        if (gtmId) {
          const script = document.createElement('script');
          script.async = true;
          script.src = `${GTM_SCRIPT}?id=${encodeURIComponent(gtmId)}`;
          document.head.appendChild(script);
        }
        if (pixelId && !out) {
          import('./pixel')
            .then((m) => {
              if (cancelled) return;
              pixelView = m.startPixel(pixelId);
              for (; pendingPixelViews > 0; pendingPixelViews--) pixelView();
            })
            .catch((err) => console.warn('[pixel]', err));
        }
      }),
  );
  return () => {
    cancelled = true;
    stopWaiting();
    window.next.router.events.off('routeChangeComplete', view);
  };
}
