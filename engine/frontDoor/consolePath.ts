/**
 * The console's paths (engine/frontDoor/frontDoor.ts asks these): what a console host's path becomes
 * for Next, and which paths belong to the console alone. Pure; table tests in
 * tests/unit/front-door.test.ts. The page list itself is engine/console/pagePaths.ts.
 *
 * The console's pages live in Next under an internal prefix (pages/_console/…) and its API under
 * /api/console/… (pages/api/console/…). A console host maps its short paths ("/leads") onto the
 * internal ones (the studio's: /studio, /studio/new, /studio/{brand}, /studio/{brand}/history and a
 * draft's preview, /studio-preview/{brand}); every other host is refused both, so no brand host can ever reach a console
 * page, its data requests or its API, whatever the spelling.
 */

import { CONSOLE_PREFIX, isConsolePage } from '../console/pagePaths';

export { CONSOLE_PREFIX };
export const CONSOLE_API = '/api/console';

/**
 * The console's API: its form posts (/api/console/{action}), the brand studio's JSON API
 * (/api/console/studio/…: lower-case segments, brand ids and version numbers only), and the logos
 * uploaded in the studio (its pages show them, as every brand host does).
 */
const API = /^\/api\/(?:console\/(?:[a-z][a-z-]{0,31}|studio(?:\/[a-z0-9][a-z0-9-]{0,62}){1,4})|brand-logo\/[0-9a-f]{32}\.(?:svg|png))$/;
/** Next's built files (the console's stylesheet), the favicon and the brands' logos in public/ (a draft's preview shows its brand's). */
const OWN_FILES = /^\/(?:_next\/static\/[A-Za-z0-9_./~%-]+|favicon\.ico|logos\/[a-z0-9][a-z0-9-]{0,60}\.(?:svg|png))$/;

/** The URL Next is handed for a console host's request, or undefined for a path the console does not have (404). */
export function consoleUrl(path: string, search: string): string | undefined {
  if (isConsolePage(path)) return `${CONSOLE_PREFIX}${path === '/' ? '' : path}${search}`;
  if (API.test(path) || OWN_FILES.test(path)) return path + search;
  return undefined;
}

const startsWithSegment = (path: string, prefix: string) => path === prefix || path.startsWith(prefix + '/');
const CONSOLE_DATA = /^\/_next\/data\/[^/]+\/_console(?:[/.]|$)/;

/**
 * Whether a path (normalised: decoded, backslashes as slashes, runs of slashes as one; any case)
 * names a console page, a console page's data or the console's API: refused on every other host.
 */
export function isConsolePath(normalised: string): boolean {
  const lower = normalised.toLowerCase();
  return startsWithSegment(lower, CONSOLE_PREFIX) || startsWithSegment(lower, CONSOLE_API) || CONSOLE_DATA.test(lower);
}
