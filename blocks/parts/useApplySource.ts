import { useEffect, useState } from 'react';
import { storedSource } from '../../engine/browser/applySource';
import { afterVisitRemembered, localStore } from '../chrome/visitTracking';

/**
 * SPEC §4: the apply source is read from local storage (LoansSource1) once this visit is stored (when the page is first idle,
 * or at the first input: blocks/chrome/visitTracking.ts); null until then (→ landing-page).
 */
export function useApplySource(): string | null {
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => afterVisitRemembered(() => setSource(storedSource(localStore()))), []);
  return source;
}
