/**
 * The apply source (SPEC §2 Apply, §3): v1 = the stored source, default landing-page. What every
 * page's script needs; the URL builder of the widgets that hand off with an amount is
 * engine/browser/applyUrl.ts (only their chunks load it).
 */
export const DEFAULT_SOURCE = 'landing-page';
/** Local storage key holding the apply source (SPEC §3). */
export const SOURCE_STORAGE_KEY = 'LoansSource1';

/** The apply source stored by visit tracking, read in the browser after mount; null when absent or unreadable. */
export function storedSource(storage: Pick<Storage, 'getItem'> | undefined): string | null {
  try {
    return storage?.getItem(SOURCE_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/**
 * A server-rendered apply link with the stored source put in after mount: v1 replaced when the
 * link has one (links without v1, e.g. an external application page, are left as they are).
 * Kept tiny: it is in every page's script.
 */
export function withApplySource(href: string, source: string | null | undefined): string {
  const v1 = source?.trim();
  return v1 ? href.replace(/([?&])v1=[^&#]*/, (_, sep: string) => sep + new URLSearchParams({ v1 }).toString()) : href;
}
