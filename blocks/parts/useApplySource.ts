import { useEffect, useState } from 'react';
import { storedSource } from '../../engine/apply';

/** SPEC §4: the apply source is read from local storage (LoansSource1) after mount; null until then (→ landing-page). */
export function useApplySource(): string | null {
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => setSource(storedSource(typeof window === 'undefined' ? undefined : window.localStorage)), []);
  return source;
}
