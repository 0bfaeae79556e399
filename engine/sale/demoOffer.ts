/**
 * The demo lender's offer, carried in the link the borrower follows to its page
 * (/demo-lender/offer?o=…). The demo lender makes it when it accepts a post and answers with it
 * as its own reference for the lead (buyerLeadId); the sale-status answer builds the borrower's
 * continue link from it. Sealed (AES-256-GCM under a key derived from the lead key): the page
 * trusts only what this server made — a forged or altered link fails the tag — and the link shows
 * nothing of the request (the sale-status answer carries no amount or price). An offer expires a
 * day after it was made, as a lender's offer would. It is bound to the brand the borrower applied
 * on (the brand id is authenticated with it): the same link on another brand's host is not genuine.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { DEMO_OFFER_PATH } from '../browser/requestPath';

export { DEMO_OFFER_PATH };
export const DEMO_OFFER_TTL_MS = 24 * 3600_000;
const VERSION = 'o2.';
/** What the token may be: the version, then base64url of iv (12) + sealed offer + tag (16). */
const TOKEN = /^o2\.[A-Za-z0-9_-]{40,160}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface DemoOffer {
  /** the amount requested, in whole units of `currency` */
  amount: number;
  loanKind: 'general' | 'title';
  /** ISO 4217: USD, CAD or AUD */
  currency: string;
  /** what the demo lender paid for the request, in cents (shown to the tester) */
  priceCents: number;
  /** where the borrower lives (ISO 3166-1 alpha-2 and the state, province or territory code): the page gives times in that region */
  country: string;
  region: string;
  /** when the offer lapses (ms since the epoch) */
  expiresAt: number;
}

export type OpenedOffer =
  | { ok: true; offer: DemoOffer }
  /** expired: the offer that lapsed (its time is given in the borrower's region) */
  | { ok: false; status: 400 | 403 | 410; title: string; reason: string; expired?: DemoOffer };

/** The key the offers are sealed with: derived from a lead key, so no new secret is needed. */
export const demoOfferKey = (leadKey: Buffer): Buffer => createHmac('sha256', leadKey).update('loansites demo lender offers v1').digest();

const encode = (o: DemoOffer): string =>
  [o.amount, o.loanKind === 'title' ? 't' : 'g', o.currency, o.priceCents, Math.floor(o.expiresAt / 1000), o.country, o.region].join('|');

function decode(text: string): DemoOffer | undefined {
  const m = /^(\d{1,7})\|([gt])\|([A-Z]{3})\|(\d{1,6})\|(\d{1,12})\|([A-Z]{2})\|([A-Z]{0,3})$/.exec(text);
  if (!m) return undefined;
  return {
    amount: Number(m[1]),
    loanKind: m[2] === 't' ? 'title' : 'general',
    currency: m[3]!,
    priceCents: Number(m[4]),
    expiresAt: Number(m[5]) * 1000,
    country: m[6]!,
    region: m[7]!,
  };
}

/** The brand, authenticated with the offer (GCM's additional data): it costs the link no length. */
const boundTo = (brand: string): Buffer => Buffer.from(`brand:${brand}`, 'utf8');

/** The offer as the link carries it (short enough for a buyerLeadId: at most 128 characters), bound to the brand it was made on. */
export function sealDemoOffer(offer: Omit<DemoOffer, 'expiresAt'>, now: Date, key: Buffer, brand: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(boundTo(brand));
  const body = Buffer.concat([cipher.update(encode({ ...offer, expiresAt: now.getTime() + DEMO_OFFER_TTL_MS }), 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/**
 * The offer of a link opened on `brand`'s host, checked: missing or damaged (400), not made here
 * or made on another brand (403), expired (410). Any of `keys` may have sealed it.
 */
export function openDemoOffer(token: string | null | undefined, now: Date, keys: readonly Buffer[], brand: string): OpenedOffer {
  if (!token)
    return { ok: false, status: 400, title: 'This link has no offer in it', reason: 'The link to this page should carry an offer, and this one does not.' };
  const damaged = { ok: false, status: 400, title: 'This offer link is damaged', reason: 'The link was cut short or changed on the way here.' } as const;
  if (!TOKEN.test(token)) return damaged;
  const raw = Buffer.from(token.slice(VERSION.length), 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) return damaged;
  for (const key of keys) {
    let text: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(boundTo(brand));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      continue; // not this key's (or not genuine)
    }
    const offer = decode(text);
    if (!offer) return damaged;
    if (offer.expiresAt <= now.getTime()) return { ok: false, status: 410, title: 'This demo offer has expired', reason: 'Offers last a day.', expired: offer };
    return { ok: true, offer };
  }
  return {
    ok: false,
    status: 403,
    title: 'This offer link is not genuine',
    reason: 'It was not made by the demo lender of this site (an offer opens only on the site the request was sent from), or it was changed.',
  };
}

/** The borrower's continue link for a sale to the demo lender, from the lender's reference (its sealed offer). */
export const demoOfferUrl = (buyerLeadId: string | null | undefined): string =>
  buyerLeadId && TOKEN.test(buyerLeadId) ? `${DEMO_OFFER_PATH}?o=${buyerLeadId}` : DEMO_OFFER_PATH;
