/**
 * The console's page list: the paths a console host's pages answer on (engine/frontDoor/consolePath.ts
 * maps them onto Next's internal prefix; engine/console/returnTo.ts returns a signed-in operator to
 * one of them and nothing else). Pure.
 */

/** The internal prefix Next serves console pages under: /_console{path}. */
export const CONSOLE_PREFIX = '/_console';
/** A console host's page paths, matched on the path as sent (no decoding: a lead id is [A-Za-z0-9_-]). */
const PAGE =
  /^\/(?:|login|leads|leads\/[A-Za-z0-9_-]{1,64}|buyers|buyers\/[a-z][a-z0-9-]{1,39}|brands|exports|users|audit|account|quality|refused|studio|studio\/new|studio\/[a-z0-9][a-z0-9-]{0,62}(?:\/history)?|studio-preview\/[a-z0-9][a-z0-9-]{0,62}|experiments(?:\/[a-z][a-z0-9-]{0,39})?)$/;
/** The money settings' page (currency rates, alert rules). */
const SETTINGS_PAGE = /^\/settings$/;
/** Whether a path (as sent, no decoding) is one of the console's pages: its page list, not its API or its own files. */
export const isConsolePage = (path: string): boolean => PAGE.test(path) || SETTINGS_PAGE.test(path);
