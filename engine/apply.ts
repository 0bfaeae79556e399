/**
 * The one apply-URL builder every button, link and widget hands off through (SPEC §2 Apply):
 * existing query parameters kept, v1 = the stored source (default landing-page), and the
 * amount under the brand's key only when an amount is given.
 */
import type { AmountParam } from '../schemas/brand.types';

export type { AmountParam };

export const DEFAULT_SOURCE = 'landing-page';
/** Local storage key holding the apply source (SPEC §3). */
export const SOURCE_STORAGE_KEY = 'LoansSource1';

export interface ApplyTarget {
  path: string;
  amountParam: AmountParam;
}

/** The title-loan form's target (SPEC §2): /apply-title-loans with the amount as requestedamount, whatever the brand. */
export const TITLE_APPLY: ApplyTarget = { path: '/apply-title-loans', amountParam: 'requestedamount' };

/** The apply source stored by visit tracking, read in the browser after mount; null when absent or unreadable. */
export function storedSource(storage: Pick<Storage, 'getItem'> | undefined): string | null {
  try {
    return storage?.getItem(SOURCE_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

export function applyUrl(target: ApplyTarget, opts: { source?: string | null; amount?: number | null; keep?: string | URLSearchParams } = {}): string {
  const query = new URLSearchParams(opts.keep ?? '');
  query.set('v1', opts.source?.trim() || DEFAULT_SOURCE);
  if (opts.amount !== undefined && opts.amount !== null && Number.isFinite(opts.amount)) query.set(target.amountParam, String(Math.round(opts.amount)));
  return `${target.path}?${query.toString()}`;
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
