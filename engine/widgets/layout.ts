/**
 * Layout behaviour rules (SPEC §4, §9): the header turns solid once the page has scrolled past
 * 64 px; window resizes are handled after 240 ms of quiet; the breakpoints (also Tailwind's
 * theme, see styles/globals.css); the route progress bar; the inline error fallback.
 */
export const HEADER_SOLID_AFTER_PX = 64;
export const isHeaderSolid = (scrollY: number): boolean => scrollY > HEADER_SOLID_AFTER_PX;

export const RESIZE_DEBOUNCE_MS = 240;

/** SPEC §9 breakpoints (min widths in px). */
export const BREAKPOINTS = { xs: 480, sm: 640, md: 768, lg: 1024, xl: 1280, '2xl': 1536 } as const;
/** The desktop header (nav with drop-downs) shows from md up; the mobile menu below it. */
export const isDesktopWidth = (width: number): boolean => width >= BREAKPOINTS.md;

type Timers = { setTimeout: (fn: () => void, ms: number) => unknown; clearTimeout: (id: never) => void };

/** fn runs once, `ms` after the last call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number, timers: Timers = globalThis as unknown as Timers): (...args: A) => void {
  let id: unknown;
  return (...args: A) => {
    timers.clearTimeout(id as never);
    id = timers.setTimeout(() => fn(...args), ms);
  };
}

/** The route progress bar: shown from routeChangeStart until the route change completes or fails. */
export type RouteEvent = 'routeChangeStart' | 'routeChangeComplete' | 'routeChangeError';
export const progressState = (event: RouteEvent): 'loading' | 'done' => (event === 'routeChangeStart' ? 'loading' : 'done');

/** SPEC §2/§8: what a block that failed to render shows in its place. */
export const BLOCK_ERROR_TEXT = 'Oh snap! There was a problem loading this content';

/**
 * A block's error boundary: fails on a render error; resets on the next routeChangeStart, and
 * when the block it wraps is replaced by the next page's (same position, new data).
 */
export interface BoundaryState<B> {
  failed: boolean;
  block: B;
}
export type BoundaryEvent<B> = { type: 'error' } | { type: 'routeChangeStart' } | { type: 'props'; block: B };

export function boundaryState<B>(state: BoundaryState<B>, event: BoundaryEvent<B>): BoundaryState<B> {
  switch (event.type) {
    case 'error':
      return state.failed ? state : { ...state, failed: true };
    case 'routeChangeStart':
      return state.failed ? { ...state, failed: false } : state;
    case 'props':
      return event.block === state.block ? state : { failed: false, block: event.block };
  }
}
