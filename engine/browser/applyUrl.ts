/**
 * The one apply-URL builder every button, link and widget hands off through (SPEC §2 Apply):
 * existing query parameters kept, v1 = the stored source (default landing-page), and the
 * amount under the brand's key only when an amount is given.
 */
import type { AmountParam } from '../../schemas/brand.types';
import { DEFAULT_SOURCE } from './applySource';

export type { AmountParam };

export interface ApplyTarget {
  path: string;
  amountParam: AmountParam;
}

/** The title-loan form's target (SPEC §2): /apply-title-loans with the amount as requestedamount, whatever the brand. */
export const TITLE_APPLY: ApplyTarget = { path: '/apply-title-loans', amountParam: 'requestedamount' };

export function applyUrl(target: ApplyTarget, opts: { source?: string | null; amount?: number | null; keep?: string | URLSearchParams } = {}): string {
  const query = new URLSearchParams(opts.keep ?? '');
  query.set('v1', opts.source?.trim() || DEFAULT_SOURCE);
  if (opts.amount !== undefined && opts.amount !== null && Number.isFinite(opts.amount)) query.set(target.amountParam, String(Math.round(opts.amount)));
  return `${target.path}?${query.toString()}`;
}
