/**
 * A buyer's answers read by the sale's own readers (engine/sale/answers.ts) and turned into the
 * sale_events rows the sale records for them: what the console's buyer pages and alerts read.
 */
import type { Buyer } from '../../schemas/buyer.types';
import { readBid, readPostAnswer, type RawAnswer } from '../../engine/sale/answers';
import type { NewEvent } from '../../engine/store/sales';

export function recordedCalls(leadId: string, buyer: Buyer) {
  return {
    ping(raw: RawAnswer, at: Date | string): NewEvent {
      const o = readBid(raw, buyer);
      const when = typeof at === 'string' ? at : at.toISOString();
      return {
        lead_id: leadId,
        buyer_id: buyer.id,
        step: 'ping',
        outcome: o.ok ? 'bid' : 'no-bid',
        latency_ms: 50,
        at: when,
        detail: o.ok ? 'pg_1' : o.reason,
      };
    },
    post(raw: RawAnswer, at: Date | string): NewEvent {
      const o = readPostAnswer(raw, buyer, 10);
      const outcome = o.ok ? 'accepted' : o.unknown ? 'unconfirmed' : 'refused';
      const when = typeof at === 'string' ? at : at.toISOString();
      return { lead_id: leadId, buyer_id: buyer.id, step: 'post', outcome, latency_ms: 50, at: when, detail: o.ok ? o.redirectUrl : o.reason };
    },
  };
}
