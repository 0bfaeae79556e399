/**
 * How place names are shown. The data sources write some names in a naive title case
 * ("Mcallen", "District Of Columbia", "Isle Of Palms"); these rules give the usual spelling.
 * Record values (SPEC §3's "District Of Columbia") are kept where they are records; pages show
 * the display form. Slugs are unchanged (slugify lower-cases anyway).
 */

/** Joining words written in lower case inside a name (never as its first word). */
const MINOR_WORDS = new Set(['of', 'the', 'and', 'on', 'in', 'by']);

/** One word: "mcallen" → "McAllen", "o'fallon" → "O'Fallon", "d'iberville" → "D'Iberville". */
function displayWord(word: string, first: boolean): string {
  const lower = word.toLowerCase();
  if (!first && MINOR_WORDS.has(lower)) return lower;
  // Words that are all capitals in the source (US, AFB, II) stay as written.
  if (word.length > 1 && word === word.toUpperCase() && /[A-Z]/.test(word)) return word;
  return lower
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/^(Mc)([a-z])/, (_, mc: string, c: string) => mc + c.toUpperCase())
    .replace(/^([OD]')([a-z])/, (_, p: string, c: string) => p + c.toUpperCase())
    .replace(/-([a-z])/g, (_, c: string) => `-${c.toUpperCase()}`);
}

/** A city or state name as pages show it: "Mcallen" → "McAllen", "District Of Columbia" → "District of Columbia". */
export const displayPlaceName = (name: string): string =>
  name
    .trim()
    .split(/\s+/)
    .map((w, i) => displayWord(w, i === 0))
    .join(' ');

/** A heading or label that starts in lower case because a template began with a lower-case value: first letter up. */
export const capitalizeFirst = (text: string): string => text.replace(/^(\s*)(\p{Ll})/u, (_, space: string, c: string) => space + c.toUpperCase());
