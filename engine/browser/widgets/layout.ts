/**
 * Layout behaviour rules (SPEC §4, §9): the header turns solid once the page has scrolled past
 * 64 px; the inline error fallback. Every page's script carries this module: the breakpoints and
 * the resize delay (engine/browser/widgets/viewport.ts) and the route progress bar
 * (engine/browser/widgets/routeProgress.ts) are modules of their own, in the chunks that need them.
 */
export const HEADER_SOLID_AFTER_PX = 64;
export const isHeaderSolid = (scrollY: number): boolean => scrollY > HEADER_SOLID_AFTER_PX;

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
