/**
 * Exit-intent popup (SPEC §4): opens once, when the pointer leaves the document, only if the
 * brand's local-storage flag is unset; the flag is set to 1 at that moment and the popup never
 * opens again in that browser (reloads included).
 */
export interface FlagStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** One flag per brand, so one browser sees each site's popup once. */
export const exitFlagKey = (brandId: string): string => `${brandId}:exitPopupShown`;

/** A mouseout whose pointer went nowhere inside the page: it left the document (window). */
export const leftDocument = (event: { relatedTarget: unknown }): boolean => event.relatedTarget == null;

/** Has this browser already seen the popup? Unreadable storage counts as seen: better never than every page. */
export function exitPopupSeen(storage: FlagStorage | undefined, key: string): boolean {
  try {
    return !storage || storage.getItem(key) !== null;
  } catch {
    return true;
  }
}

/**
 * Called when the pointer leaves: true when the popup should open now. Sets the flag to "1" in
 * the same step; false when it was already set or cannot be stored.
 */
export function claimExitPopup(storage: FlagStorage | undefined, key: string): boolean {
  if (exitPopupSeen(storage, key)) return false;
  try {
    storage!.setItem(key, '1');
    return storage!.getItem(key) === '1';
  } catch {
    return false;
  }
}
