/**
 * The sale's keys, all derived from the lead key so one secret guards everything: the key of the
 * contact hashes (duplicates and opt-outs match on them) and the borrower's sale-status token.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { leadKeyring } from '../keys/sealing';

/** The current lead key: contact hashes and sale tokens are keyed with it (a rotated key starts a new duplicate window). */
const leadKey = (): Buffer => leadKeyring().current.key;

const contactKeyOf = (key: Buffer): Buffer => createHmac('sha256', key).update('loansites contact hashes v1').digest();

/** The key of the contact hashes: derived from the lead key, so one secret guards both. */
export const contactKey = (): Buffer => contactKeyOf(leadKey());

/** The contact-hash keys of every lead key still in the keyring, current first: opt-outs match under all of them. */
export const contactKeys = (): Buffer[] => [...leadKeyring().byId.values()].map(contactKeyOf);

/**
 * The borrower's ticket to the sale's status: the lead id and a MAC of it under the lead key.
 * Unguessable without the key, the same on a retry of the same request, nothing to store.
 */
const saleTokenUnder = (key: Buffer, leadId: string): string =>
  `${leadId}.${createHmac('sha256', key).update(`sale-status:${leadId}`).digest('base64url').slice(0, 32)}`;

export const saleToken = (leadId: string): string => saleTokenUnder(leadKey(), leadId);

/**
 * The lead id of a genuine token, else undefined. A token made under any lead key still in the
 * keyring is taken: a borrower whose page is polling while the servers restart on a rotated key
 * keeps following the sale.
 */
export function leadOfSaleToken(token: string): string | undefined {
  const m = /^(ld_[a-z0-9]{6,40})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!m) return undefined;
  const given = Buffer.from(token);
  for (const key of leadKeyring().byId.values()) {
    const expected = Buffer.from(saleTokenUnder(key, m[1]!));
    if (expected.length === given.length && timingSafeEqual(expected, given)) return m[1];
  }
  return undefined;
}
