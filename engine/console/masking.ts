/**
 * Personal data in the console by role: an admin sees it; an analyst sees phone and email masked
 * unless they revealed this lead (the reveal is audited by the caller); a viewer sees no lead at
 * all (aggregates only). Pure functions; the masks keep just enough to tell two leads apart.
 */
import { may, type Role } from './roles';

/** "ana.garcia@example.org" → "a•••@e•••.org" */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${email[0]}•••@${domain[0] ?? ''}•••${tld}`;
}

/** "5125550123" → "•••-•••-0123": the last four digits only. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length >= 4 ? `•••-•••-${digits.slice(-4)}` : '•••';
}

export interface PersonalFields {
  email: string;
  phone: string;
  first_name: string;
  last_name: string;
}

/**
 * A lead as `role` may see it: undefined when the role may not open leads; masked phone, email and
 * last name for a role that may open them but has not revealed this one.
 */
export function leadForRole<T extends PersonalFields>(lead: T, role: Role, revealed: boolean): (T & { masked: boolean }) | undefined {
  if (!may(role, 'leads.view')) return undefined;
  if (role === 'admin' || (revealed && may(role, 'leads.reveal'))) return { ...lead, masked: false };
  return { ...lead, email: maskEmail(lead.email), phone: maskPhone(lead.phone), last_name: lead.last_name ? `${lead.last_name[0]}.` : '', masked: true };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A free text about a lead (a buyer's reason for refusing it, a destination's error) with the
 * lead's own email, phone and last name masked as its fields are: a buyer or receiver may quote
 * them back ("duplicate of ana@example.org"), and the text is shown to roles that see them masked.
 */
export function maskPersonalText(text: string, lead: PersonalFields): string {
  let out = text;
  if (lead.email.length >= 3) out = out.replace(new RegExp(escapeRegExp(lead.email), 'giu'), maskEmail(lead.email));
  // the phone's national digits, however the text spaces or punctuates them (512-555-0123, (512) 555 0123, +1 512…)
  const digits = lead.phone.replace(/\D/g, '').slice(-10);
  if (digits.length >= 7) out = out.replace(new RegExp(`(?<!\\d)\\(?${digits.split('').join('[^\\d\\n]{0,3}')}(?!\\d)`, 'gu'), maskPhone(digits));
  if (lead.last_name.length >= 2)
    out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(lead.last_name)}(?![\\p{L}\\p{N}])`, 'giu'), `${lead.last_name[0]}.`);
  return out;
}

/**
 * Where a borrower was sent, for a role that does not see personal data: a lender's URL may carry
 * the borrower's details in its path or query, so only its origin is kept; a page of this site
 * (the demo lender's offer) keeps its path, its sealed query hidden.
 */
export function maskUrl(url: string): string {
  if (url.startsWith('/')) {
    const q = url.indexOf('?');
    return q < 0 ? url : `${url.slice(0, q)}?…`;
  }
  try {
    const u = new URL(url);
    return `${u.origin}/…`;
  } catch {
    return '•••';
  }
}
