/**
 * The page's Next router, as Next itself publishes it: window.next.router (set before the page
 * hydrates; its `events` are Router.events). Browser code uses it instead of
 * `import Router from 'next/router'`: a page chunk that imports next/router shares Next's router
 * code with Next's own entry, and Turbopack then splits that code out of the framework chunk into
 * one of its own — the same bytes, compressed apart (measured: 0.8 KiB gzip more on every page).
 * Effects and event handlers only: it is a browser object.
 */
import type { NextRouter } from 'next/router';

declare global {
  interface Window {
    next: { router: NextRouter };
  }
}
