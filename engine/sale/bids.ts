/**
 * The order in which buyers are offered a lead: tier by tier (1 first); within a tier the
 * ping-post bids at or above their floor, highest price first, then the direct-post buyers by
 * their fixed price. Ties go to the faster answer, then the buyer id, so the order is stable.
 */
import type { Buyer } from '../../schemas/buyer.types';

export interface Bid {
  buyer: Buyer;
  /** the bid's price, or the buyer's fixed price */
  price: number;
  bidId?: string;
  pingId?: string;
  latencyMs: number;
}

export interface Offer {
  buyer: Buyer;
  /** the price it will pay; undefined for a direct-post buyer without a fixed price (its answer says) */
  price?: number;
  bidId?: string;
  pingId?: string;
}

/** The price of a bid: a fixed price wins over whatever the buyer bid. */
export const bidPrice = (buyer: Buyer, bid: number | undefined): number | undefined => buyer.price?.fixed ?? bid;

/**
 * Whether a price is in whole cents, as every price is recorded. Exact: n / 100 is the double
 * nearest the decimal n/100, which is what JSON gives for a price written with two decimals. (A
 * schema's multipleOf 0.01 cannot say this: a validator divides, and 9.94 / 0.01 is not 994 in
 * floating point.)
 */
export const wholeCents = (dollars: number): boolean => Math.round(dollars * 100) / 100 === dollars;

/** Whether a price clears the buyer's floor (the operator's minimum for this buyer). */
export const clearsFloor = (buyer: Buyer, price: number): boolean => price >= (buyer.price?.floor ?? 0);

const tierOf = (b: Buyer) => b.tier ?? 1;

export function orderOffers(bids: readonly Bid[], directPost: readonly Buyer[]): Offer[] {
  const tiers = [...new Set([...bids.map((b) => tierOf(b.buyer)), ...directPost.map(tierOf)])].sort((a, b) => a - b);
  const out: Offer[] = [];
  for (const tier of tiers) {
    const taken = bids
      .filter((b) => tierOf(b.buyer) === tier && clearsFloor(b.buyer, b.price))
      .sort((a, b) => b.price - a.price || a.latencyMs - b.latencyMs || a.buyer.id.localeCompare(b.buyer.id));
    for (const b of taken) out.push({ buyer: b.buyer, price: b.price, ...(b.bidId ? { bidId: b.bidId } : {}), ...(b.pingId ? { pingId: b.pingId } : {}) });
    const direct = directPost.filter((b) => tierOf(b) === tier).sort((a, b) => (b.price?.fixed ?? -1) - (a.price?.fixed ?? -1) || a.id.localeCompare(b.id));
    for (const b of direct) out.push({ buyer: b, ...(b.price?.fixed !== undefined ? { price: b.price.fixed } : {}) });
  }
  return out;
}
