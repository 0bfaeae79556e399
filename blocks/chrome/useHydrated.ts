import { useSyncExternalStore } from 'react';

const nothingToWatch = () => () => undefined;

/**
 * False in the server's HTML and while React hydrates it, true from the render after: controls
 * that only work with their script stay disabled (same size, no jump) until it runs, instead of
 * ignoring a tap. A component mounted later on the client is true at once.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    nothingToWatch,
    () => true,
    () => false,
  );
}
