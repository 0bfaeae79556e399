import { DEFAULT_SOURCE, storedSource } from '../../engine/browser/applySource';
import { clickIdOf, STORAGE_KEYS } from '../../engine/browser/tracking';
import { parseStoredVisit, VISIT_STORAGE_KEY } from '../../engine/browser/visit';

function currentVisitId(): string {
  try {
    return typeof window === 'undefined' ? '' : (parseStoredVisit(window.sessionStorage.getItem(VISIT_STORAGE_KEY))?.id ?? '');
  } catch {
    return '';
  }
}

export interface VisitTracking {
  /** the stored page source (path) */
  source2: string;
  /** gg + gclid, tt + ttclid, or empty */
  clickId: string;
  /** cc + 32 hex digits, or empty */
  uuid: string;
  /** the first-party visit (blocks/chrome/funnelEvents.ts, in sessionStorage), or empty */
  visitId: string;
}

/**
 * What visit tracking stored for this visitor (SPEC §3, §4: encoded storage keys, written by
 * blocks/chrome/visitTracking.ts). The one place the form reads them; storage that cannot be
 * read (private mode, blocked) gives empty fields, which the form leaves out.
 */
export function readVisitTracking(storage?: Pick<Storage, 'getItem'>): VisitTracking {
  try {
    const from = storage ?? (typeof window === 'undefined' ? undefined : window.localStorage);
    const get = (key: string) => from?.getItem(key) ?? '';
    return {
      source2: get(STORAGE_KEYS.path),
      clickId: clickIdOf({ gclid: get(STORAGE_KEYS.gclid), ttclid: get(STORAGE_KEYS.ttclid) }),
      uuid: get(STORAGE_KEYS.uuid),
      visitId: currentVisitId(),
    };
  } catch {
    return { source2: '', clickId: '', uuid: '', visitId: '' };
  }
}

/** v1: the query's v1, else the stored apply source (LoansSource1), else landing-page. Read in the browser only. */
export function readApplySource(search: string, storage: Pick<Storage, 'getItem'> | undefined): string {
  const fromQuery = new URLSearchParams(search).get('v1')?.trim();
  return (fromQuery || storedSource(storage)?.trim() || DEFAULT_SOURCE).slice(0, 100);
}
