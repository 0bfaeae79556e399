/**
 * The demo lender's offer, carried in the link the borrower follows to its page
 * (/demo-lender/offer?o=…). The demo lender makes it when it accepts a post and answers with it
 * as its own reference for the lead (buyerLeadId); the sale-status answer builds the borrower's
 * continue link from it. Sealed (AES-256-GCM under a key derived from the lead key): the page
 * trusts only what this server made — a forged or altered link fails the tag — and the link shows
 * nothing of the request (the sale-status answer carries no amount or price). An offer expires a
 * day after it was made, as a lender's offer would.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

export const DEMO_OFFER_PATH = '/demo-lender/offer';
export const DEMO_OFFER_TTL_MS = 24 * 3600_000;
const VERSION = 'o1.';
/** What the token may be: the version, then base64url of iv (12) + sealed offer + tag (16). */
const TOKEN = /^o1\.[A-Za-z0-9_-]{40,160}$/;
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
  /** when the offer lapses (ms since the epoch) */
  expiresAt: number;
}

export type OpenedOffer = { ok: true; offer: DemoOffer } | { ok: false; status: 400 | 403 | 410; title: string; reason: string; expiredAt?: number };

/** The key the offers are sealed with: derived from a lead key, so no new secret is needed. */
export const demoOfferKey = (leadKey: Buffer): Buffer => createHmac('sha256', leadKey).update('loansites demo lender offers v1').digest();

const encode = (o: DemoOffer): string => [o.amount, o.loanKind === 'title' ? 't' : 'g', o.currency, o.priceCents, Math.floor(o.expiresAt / 1000)].join('|');

function decode(text: string): DemoOffer | undefined {
  const m = /^(\d{1,7})\|([gt])\|([A-Z]{3})\|(\d{1,6})\|(\d{1,12})$/.exec(text);
  if (!m) return undefined;
  return { amount: Number(m[1]), loanKind: m[2] === 't' ? 'title' : 'general', currency: m[3]!, priceCents: Number(m[4]), expiresAt: Number(m[5]) * 1000 };
}

/** The offer as the link carries it (short enough for a buyerLeadId: at most 128 characters). */
export function sealDemoOffer(offer: Omit<DemoOffer, 'expiresAt'>, now: Date, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(encode({ ...offer, expiresAt: now.getTime() + DEMO_OFFER_TTL_MS }), 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The offer of a link, checked: missing or damaged (400), not made here (403), expired (410). Any of `keys` may have sealed it. */
export function openDemoOffer(token: string | null | undefined, now: Date, keys: readonly Buffer[]): OpenedOffer {
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
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      continue; // not this key's (or not genuine)
    }
    const offer = decode(text);
    if (!offer) return damaged;
    if (offer.expiresAt <= now.getTime())
      return { ok: false, status: 410, title: 'This demo offer has expired', reason: 'Offers last a day.', expiredAt: offer.expiresAt };
    return { ok: true, offer };
  }
  return { ok: false, status: 403, title: 'This offer link is not genuine', reason: 'It was not made by the demo lender of this site, or it was changed.' };
}

/** The borrower's continue link for a sale to the demo lender, from the lender's reference (its sealed offer). */
export const demoOfferUrl = (buyerLeadId: string | null | undefined): string =>
  buyerLeadId && TOKEN.test(buyerLeadId) ? `${DEMO_OFFER_PATH}?o=${buyerLeadId}` : DEMO_OFFER_PATH;
