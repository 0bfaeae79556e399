/**
 * Duplicates and opt-outs match on the borrower's contact — phone and email, normalised — kept
 * only as a keyed hash (HMAC-SHA256 under a key derived from the lead key), so the match table
 * does not become a list of phone numbers and a dump of it cannot be reversed by guessing.
 */
import { createHmac } from 'node:crypto';
import { cleanEmail } from '../browser/formRules';
import { asciiDigits } from '../browser/regions';

/**
 * A phone as the digits every brand stores it as (engine/browser/regions.ts normalisePhoneFor): North
 * America (US, Canada) 10 digits, a leading country code 1 dropped; an Australian mobile
 * "04xxxxxxxx", from +61 too. The two cannot collide (a North American number never starts with
 * 0). undefined when it is neither, so an Australian borrower's phone matches for duplicates and
 * opt-outs as an American's does. Digits of any script are read as theirs (asciiDigits, as the
 * application form reads them), and a letter or another number sign makes it no phone.
 */
export function normalisePhone(phone: string): string | undefined {
  const written = asciiDigits(phone);
  // a number-like sign that is not a decimal digit (², ③, Ⅻ) is not punctuation to drop: without it the rest may be another number
  if (/[\p{N}\p{L}]/u.test(written.replace(/[0-9]/g, ''))) return undefined;
  let digits = written.replace(/\D/g, '');
  // +61 412 345 678, and +61 (0)412 345 678 with the trunk 0 kept as Australians often write it
  if (/^610?4\d{8}$/.test(digits)) digits = `0${digits.slice(digits[2] === '0' ? 3 : 2)}`;
  if (/^04\d{8}$/.test(digits)) return digits;
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  return /^[2-9]\d{9}$/.test(digits) ? digits : undefined;
}

/** An email cleaned (cleanEmail); Gmail's dots and +tags dropped (the same inbox). */
export function normaliseEmail(email: string): string | undefined {
  const e = cleanEmail(email);
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
