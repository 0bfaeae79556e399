/** The route progress bar's rule (SPEC §4); blocks/chrome/navigate.ts applies it. */
/** The route progress bar: shown from routeChangeStart until the route change completes or fails. */
export type RouteEvent = 'routeChangeStart' | 'routeChangeComplete' | 'routeChangeError';
export const progressState = (event: RouteEvent): 'loading' | 'done' => (event === 'routeChangeStart' ? 'loading' : 'done');
