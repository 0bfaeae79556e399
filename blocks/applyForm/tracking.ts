import { DEFAULT_SOURCE, storedSource } from '../../engine/apply';

export interface VisitTracking {
  /** the stored page source (path) */
  source2: string;
  /** gg + gclid, tt + ttclid, or empty */
  clickId: string;
  /** cc + 32 hex digits, or empty */
  uuid: string;
}

/**
 * What visit tracking stored for this visitor (SPEC §3, §4: encoded storage keys).
 * TODO(issue 9): read engine/tracking.ts's stored values here once visit tracking lands; until
 * then every field is empty (the lead schema accepts empty strings and the form leaves them out).
 * This is the one place the form reads them.
 */
export function readVisitTracking(): VisitTracking {
  return { source2: '', clickId: '', uuid: '' };
}

/** v1: the query's v1, else the stored apply source (LoansSource1), else landing-page. Read in the browser only. */
export function readApplySource(search: string, storage: Pick<Storage, 'getItem'> | undefined): string {
  const fromQuery = new URLSearchParams(search).get('v1')?.trim();
  return (fromQuery || storedSource(storage)?.trim() || DEFAULT_SOURCE).slice(0, 100);
}
