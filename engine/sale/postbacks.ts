/**
 * Conversion postbacks: when a lead is sold, its brand's postback URLs (brand file "postbacks")
 * are requested server-side through the outbox — one row per lead and postback
 * ("postback:<name>"), so each is sent once and retried until the platform answers (the request
 * is built at send time: engine/outbox/postbacks.ts). Never for a test lead, nor for a visitor who
 * opted out of sale and sharing (their click ids are not given to third parties).
 */
import type { Postback } from '../../schemas/brand.types';
import type { Store } from '../store/db';
import type { LeadsTable } from '../store/leads';
import { isTestLead } from '../leads/environment';
import { queueOutbox } from '../store/sales';

export const POSTBACK = 'postback:';

export type PostbackLead = Pick<LeadsTable, 'id' | 'brand' | 'click_id' | 'source' | 'source2' | 'currency' | 'privacy_opt_out'>;

/** The ad click ids of a lead: its click id is "gg" + gclid or "tt" + ttclid (engine/browser/tracking.ts). */
export function clickIds(clickId: string): { clickId: string; gclid: string; ttclid: string } {
  const gclid = clickId.startsWith('gg') ? clickId.slice(2) : '';
  const ttclid = clickId.startsWith('tt') ? clickId.slice(2) : '';
  return { clickId: gclid || ttclid, gclid, ttclid };
}

/** The postbacks a sold lead gets: not for test leads or opted-out visitors; each one's source filter and required click id. */
export function postbacksFor(postbacks: readonly Postback[] | undefined, lead: PostbackLead & Pick<LeadsTable, 'environment'>): Postback[] {
  if (!postbacks?.length || lead.privacy_opt_out || isTestLead(lead)) return [];
  const ids = clickIds(lead.click_id);
  return postbacks.filter((p) => (!p.sources || p.sources.includes(lead.source)) && (!p.requires || ids[p.requires]));
}

/** Outbox rows for these postbacks of a lead (again: nothing). */
export const queuePostbacks = (db: Store, leadId: string, postbacks: readonly Postback[], now: Date): Promise<void> =>
  queueOutbox(
    db,
    postbacks.map((p) => ({ leadId, destination: `${POSTBACK}${p.name}` })),
    now,
  );
