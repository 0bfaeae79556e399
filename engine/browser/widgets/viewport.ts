/**
 * Viewport rules (SPEC §4, §9): window resizes are handled after 240 ms of quiet; the breakpoints
 * (also Tailwind's theme, see styles/globals.css).
 */
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
