/**
 * Duplicates and opt-outs match on the borrower's contact — phone and email, normalised — kept
 * only as a keyed hash (HMAC-SHA256 under a key derived from the lead key), so the match table
 * does not become a list of phone numbers and a dump of it cannot be reversed by guessing.
 */
import { createHmac } from 'node:crypto';

/** A US phone as its 10 digits (a leading country code 1 dropped); undefined when it is not one. */
export function normalisePhone(phone: string): string | undefined {
  let digits = phone.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  return /^[2-9]\d{9}$/.test(digits) ? digits : undefined;
}

/** An email trimmed and lower-cased; Gmail's dots and +tags dropped (the same inbox). */
export function normaliseEmail(email: string): string | undefined {
  const e = email.trim().toLowerCase();
  const at = e.lastIndexOf('@');
  if (at < 1 || at === e.length - 1) return undefined;
  let [local, domain] = [e.slice(0, at), e.slice(at + 1)];
  local = local.split('+')[0]!;
  if (domain === 'gmail.com' || domain === 'googlemail.com') {
    local = local.replace(/\./g, '');
    domain = 'gmail.com';
  }
  return local ? `${local}@${domain}` : undefined;
}

/** The keyed hashes of a lead's contact (one per normalised phone and email). */
export function contactHashes(key: Buffer, contact: { phone: string; email: string }): string[] {
  const out: string[] = [];
  const phone = normalisePhone(contact.phone);
  const email = normaliseEmail(contact.email);
  if (phone) out.push(createHmac('sha256', key).update(`phone:${phone}`).digest('base64url'));
  if (email) out.push(createHmac('sha256', key).update(`email:${email}`).digest('base64url'));
  return out;
}
