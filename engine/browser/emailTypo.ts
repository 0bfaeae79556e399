/**
 * A likely typo of a common mail domain ("ana@gmial.com" → "ana@gmail.com"): offered back to the
 * borrower before submit, and reported by screening when it was sent anyway. A domain one edit
 * (insert, delete, replace, swap of neighbours) from a common one, and not itself common.
 */
export const COMMON_DOMAINS = [
  'gmail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'aol.com',
  'icloud.com',
  'live.com',
  'msn.com',
  'comcast.net',
  'att.net',
  'verizon.net',
  'sbcglobal.net',
  'me.com',
  'ymail.com',
  'protonmail.com',
  'yahoo.ca',
  'hotmail.ca',
  'shaw.ca',
  'rogers.com',
  'sympatico.ca',
  'bigpond.com',
  'optusnet.com.au',
  'yahoo.com.au',
  'hotmail.com.au',
] as const;

const COMMON = new Set<string>(COMMON_DOMAINS);

/** At most one edit apart (Damerau: an adjacent swap counts as one). */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** The address with the common domain it most likely meant, or undefined when it looks as meant. */
export function suggestEmail(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  if (!domain || COMMON.has(domain)) return undefined;
  const meant = COMMON_DOMAINS.find((d) => oneEditApart(domain, d));
  return meant ? `${email.slice(0, at)}@${meant}` : undefined;
}
