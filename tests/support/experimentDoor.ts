// A production front door over a catalog at a fixed moment, whose first visitors get the ids
// `nextId` gives: the experiment tests read assignment from it without a server or the clock.
import { consoleHostsOf, type Door } from '../../engine/frontDoor/frontDoor';
import type { Catalog } from '../../engine/site/catalog';

export const EXPERIMENT_NOW = Date.parse('2026-11-28T12:00:00Z');

/** Ids 0000000000000000, 0000000000000001, … in turn. */
export function countingIds(): () => string {
  let n = 0;
  return () => (n++).toString(16).padStart(16, '0');
}

export const experimentDoor = (catalog: Catalog, nextId: () => string, now = EXPERIMENT_NOW): Door => ({
  catalog,
  previewModeId: null,
  consoleHosts: consoleHostsOf({}),
  trustForwardedHost: false,
  production: true,
  env: {},
  now: () => now,
  newVisitorId: nextId,
});
