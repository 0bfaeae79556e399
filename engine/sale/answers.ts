/**
 * A buyer's answer, read as hostile: a status other than 200, a body past the cap, text that is
 * not JSON, wrong types, a negative or absurd price, a redirect elsewhere — each becomes a
 * refusal with the reason (stored on the timeline), never an exception out of the sale.
 *
 * A refusal is `unknown` when the answer does not tell what the buyer decided: no answer in time,
 * a connection broken after the lead was sent, a 5xx, 408, 409 or 429, another 2xx, a body over
 * the cap, text that is not JSON, or JSON without the decision (`accepted`, `bid`) as true or
 * false. A post with such an answer may have been bought: the sale asks again rather than
 * offering the lead to anyone else (runner.ts). A 4xx otherwise, a lead that never left (the
 * connection was refused) and an answer that decides but that we cannot take (a price out of
 * range, a field not in the schema, a redirect elsewhere…) are settled refusals: the buyer has
 * said what it decided, and asking again would only get the same answer.
 */
import { jsonShapeProblem, MAX_JSON_DEPTH } from '../http/jsonKeys';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import bidSchema from '../../schemas/api/buyer-bid.schema.json' with { type: 'json' };
import postAnswerSchema from '../../schemas/api/buyer-post-answer.schema.json' with { type: 'json' };
import type { BuyerBid, BuyerPostAnswer } from '../../schemas/api.types';
import type { Buyer } from '../../schemas/buyer.types';
import { validatorFor } from '../http/api';
import { toProblems } from '../validate/problems';
import { bidPrice, wholeCents } from './bids';
import { DEMO_LENDER_ID } from './demoLender';
import { demoOfferUrl } from './demoOffer';
import { checkRedirect } from './redirect';

/** The most of an answer body that is read; more is a refusal. */
export const MAX_ANSWER_BYTES = 16 * 1024;

/** acceptNotTaken: the buyer answered "accepted" and we could not take it (its reason starts with ACCEPT_NOT_TAKEN). */
export type Refusal = { ok: false; reason: string; unknown?: true; acceptNotTaken?: true };
export type BidOutcome = { ok: true; price: number; bidId?: string } | Refusal;
export type PostOutcome = { ok: true; price: number; redirectUrl: string; buyerLeadId?: string } | Refusal;

const refuse = (reason: string): Refusal => ({ ok: false, reason: reason.slice(0, 300) });
/** A price the buyer named is recorded in cents: one finer than that could not be recorded as named. */
const finerThanACent = (price: number) => refuse(`price ${price} is finer than a cent`);
const unknown = (reason: string): Refusal => ({ ...refuse(reason), unknown: true });

/**
 * How the timeline words an accept we could not take. The protocol has no message that tells the
 * buyer (it may believe it bought the lead): the words let the operator find these and tell it.
 */
export const ACCEPT_NOT_TAKEN = 'accept not taken: ';
const notTaken = (r: Refusal): Refusal => ({ ...refuse(`${ACCEPT_NOT_TAKEN}${r.reason}`), acceptNotTaken: true });

/** An answer as read off the wire: its status and its body text, or why it could not be read (notSent: the request never reached the buyer). */
export type RawAnswer = { status: number; text: string; truncated?: boolean } | { error: string; notSent?: boolean };

/** A status that answers "no" for certain: a 4xx other than 408 (timeout), 409 (a conflict, e.g. the same post still being worked on) and 429. */
const refusesForCertain = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429;

/** The answer's JSON, or why it cannot be read. */
function parse(raw: RawAnswer): { value: unknown } | Refusal {
  if ('error' in raw) return raw.notSent ? refuse(raw.error) : unknown(raw.error);
  if (raw.truncated || raw.text.length > MAX_ANSWER_BYTES) return unknown(`answer body over ${MAX_ANSWER_BYTES} bytes`);
  if (raw.status !== 200)
    return refusesForCertain(raw.status)
      ? refuse(`HTTP ${raw.status}`)
      : unknown(`HTTP ${raw.status}${raw.status >= 300 && raw.status < 400 ? ' (a redirect, not followed)' : ''}`);
  // A byte order mark before the JSON is ignored, as RFC 8259 lets a reader do: some servers'
  // encoders write one, and the decision after it is as clear as without it.
  const text = raw.text.startsWith('\uFEFF') ? raw.text.slice(1) : raw.text;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return unknown('answer is not JSON');
  }
  // {"accepted":false,"accepted":true}: JSON.parse keeps the last, the buyer's own reader may
  // have meant the first; what the buyer decided cannot be told from it
  const shape = jsonShapeProblem(text);
  if (shape) return unknown(shape.problem === 'repeated' ? `answer gives the key at ${shape.at} twice` : `answer nests deeper than ${MAX_JSON_DEPTH} levels`);
  return { value };
}

/** A decoding refusal as an outcome: its reason, and whether the decision is unknown. */
const plain = (r: Refusal): Refusal => ({ ok: false, reason: r.reason, ...(r.unknown ? { unknown: true as const } : {}) });

const problems = (validate: ValidateFunction) =>
  `answer not valid: ${toProblems(validate.errors)
    .map((p) => `${p.pointer || '/'} ${p.message}`)
    .join('; ')}`;

/**
 * The answer, checked against its schema. Without its `decision` as true or false it does not
 * tell what the buyer decided (unknown); with it, anything else the schema does not allow is a
 * refusal. `unread`: fields whose value this answer's use ignores, left out before the check so
 * that what they hold cannot turn a decision down.
 */
function decode<T>(raw: RawAnswer, schema: object, decision: string, unread: readonly string[] = []): { value: T } | (Refusal & { saidYes?: true }) {
  const parsed = parse(raw);
  if ('ok' in parsed) return parsed;
  const validate = validatorFor<T>(schema);
  const value = parsed.value;
  const decided = value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as Record<string, unknown>)[decision] === 'boolean';
  if (!decided) {
    validate(value); // for its words: what the answer is missing
    return unknown(problems(validate));
  }
  const read = Object.fromEntries(Object.entries(value).filter(([k]) => !unread.includes(k)));
  return validate(read)
    ? { value: read }
    : { ...refuse(problems(validate)), ...((value as Record<string, unknown>)[decision] === true ? { saidYes: true as const } : {}) };
}

export function readBid(raw: RawAnswer, buyer: Buyer): BidOutcome {
  const d = decode<BuyerBid>(raw, bidSchema, 'bid');
  if ('ok' in d) return plain(d);
  const bid = d.value;
  if (!bid.bid) return refuse(`no bid${bid.reason ? `: ${bid.reason}` : ''}`);
  // like a price out of range, whether or not a fixed price then stands in for it
  if (bid.price !== undefined && !wholeCents(bid.price)) return finerThanACent(bid.price);
  const price = bidPrice(buyer, bid.price);
  if (price === undefined) return refuse('a bid without a price');
  return { ok: true, price, ...(bid.bidId ? { bidId: bid.bidId } : {}) };
}

/** A post answer; `offered` is the price posted (a ping-post bid, or the buyer's fixed price), which the answer cannot change. */
export function readPostAnswer(raw: RawAnswer, buyer: Buyer, offered: number | undefined): PostOutcome {
  // After a bid, or at a fixed price, the price is settled before the post: the answer's is not read.
  const d = decode<BuyerPostAnswer>(raw, postAnswerSchema, 'accepted', offered === undefined ? [] : ['price']);
  if ('ok' in d) return d.saidYes ? notTaken(d) : plain(d);
  const a = d.value;
  if (!a.accepted) return refuse(`refused${a.reason ? `: ${a.reason}` : ''}`);
  const taken = acceptTaken(a, buyer, offered);
  return taken.ok ? taken : notTaken(taken);
}

/** An accept as the sale takes it, or why it cannot be taken (a refusal: the next buyer is asked). */
function acceptTaken(a: BuyerPostAnswer, buyer: Buyer, offered: number | undefined): PostOutcome {
  if (a.price !== undefined && !wholeCents(a.price)) return finerThanACent(a.price); // only there when it is read
  const price = offered ?? bidPrice(buyer, a.price);
  if (price === undefined) return refuse('accepted without a price');
  if (price < (buyer.price?.floor ?? 0)) return refuse(`price ${price} under the floor ${buyer.price?.floor ?? 0}`);
  let redirectUrl: string;
  if (buyer.id === DEMO_LENDER_ID) {
    // The built-in demo lender sends no redirect: the borrower continues to its offer page on this site.
    redirectUrl = demoOfferUrl(a.buyerLeadId);
  } else {
    // A borrower told "matched" must have somewhere to go: an accept without a redirect is not a sale.
    if (a.redirectUrl === undefined) return refuse('accepted without a redirectUrl');
    const r = checkRedirect(a.redirectUrl, buyer.redirectHosts);
    if (!r.ok) return refuse(r.reason);
    redirectUrl = r.url;
  }
  return { ok: true, price, redirectUrl, ...(a.buyerLeadId ? { buyerLeadId: a.buyerLeadId } : {}) };
}
