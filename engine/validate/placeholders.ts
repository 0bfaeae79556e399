/**
 * `npm run validate -- --production`: what is fine while building a brand locally but must not
 * reach borrowers — a fictional telephone number (the 555-01xx range North America keeps for
 * fiction; Australia's 02 5550 xxxx and 0491 570 xxx), an all-zero ABN, Australian Credit
 * Licence or credit-representative number, an example.com/.org/.net address, a
 * placeholder tag-manager, pixel, map or captcha id (the scaffold's "pk.{id}-public-token",
 * "6Lc-{id}-site-key", or ids of X…/0… or TEST/PLACEHOLDER), and a placeholder logo (the
 * scaffold's name-only SVG or the letter-tile one). Each is reported at its file:line:col.
 * Pure: text in, problems out.
 */
import { getLocation } from 'jsonc-parser';
import { encodePointer, positionAt, type Position } from './locate';

export interface PlaceholderProblem {
  file: string;
  pointer: string;
  message: string;
  position: Position;
}

const PATTERNS: readonly [RegExp, (match: string) => string][] = [
  [
    /(?<![\d+])(?:\+?1[-. ]?)?\(?\d{3}\)?[-. ]?555[-. ]?01\d\d\b/g,
    (m) => `"${m}" is a fictional telephone number (555-0100 to 555-0199); give the brand's real number`,
  ],
  [
    /(?:\+61[-. ]?|\b0)2[-. ]?5550[-. ]?\d{4}\b|(?:\+61[-. ]?|\b0)491[-. ]?570[-. ]?\d{3}\b/g,
    (m) => `"${m}" is a fictional Australian telephone number; give the brand's real number`,
  ],
  // No number range is kept for fiction in Australia's registers: an all-zero ABN, Australian
  // Credit Licence or credit-representative number stands for one not yet given.
  [/(?<=\bABN:? ?)00 ?000 ?000 ?000\b/g, (m) => `"ABN ${m}" is a placeholder Australian Business Number; give the brand's real one`],
  [
    /(?<=\b(?:Australian Credit Licen[cs]e|ACL):? (?:(?:number|no\.) )?)0{6}\b/gi,
    (m) => `"Australian Credit Licence ${m}" is a placeholder licence number; give the licensee's real one (ASIC's Professional Register)`,
  ],
  [
    /(?<=\bcredit representative \(?(?:(?:number|no\.) )?)0{6,7}\b/gi,
    (m) => `"credit representative ${m}" is a placeholder credit-representative number; give the brand's real one (ASIC's Professional Register)`,
  ],
  [/[\w.+-]*@?\bexample\.(?:com|org|net)\b/gi, (m) => `"${m}" is a reserved example address; give the brand's real one`],
  [/\bGTM-(?:X{3,}|0{4,}|TEST\w*|PLACEHOLDER\w*)\b/gi, (m) => `"${m}" is a placeholder tag-manager id`],
  [/"tiktokPixelId":\s*"[^"]*(?:X{4,}|0{8,}|TEST|PLACEHOLDER)[^"]*"/gi, (m) => `${m.replace(/^"tiktokPixelId":\s*/, '')} is a placeholder pixel id`],
  [/\bpk\.[a-z0-9-]+-public-token\b/g, (m) => `"${m}" is the scaffold's placeholder map token`],
  [/\b6Lc-[a-z0-9-]+-site-key\b/g, (m) => `"${m}" is the scaffold's placeholder captcha site key`],
];

/** The placeholders in one brand file's text, each at its position and JSON pointer. */
export function placeholdersInBrandText(file: string, text: string): PlaceholderProblem[] {
  const out: PlaceholderProblem[] = [];
  for (const [re, say] of PATTERNS) {
    for (const m of text.matchAll(re)) {
      const offset = m.index + (m[0].startsWith('"tiktokPixelId"') ? m[0].indexOf('"', 16) + 1 : 0);
      const pointer = encodePointer(getLocation(text, offset + 1).path);
      out.push({ file, pointer, message: `${say(m[0])} (fine for local development; refused for production)`, position: positionAt(text, offset) });
    }
  }
  return out.sort((a, b) => a.position.line - b.position.line || a.position.column - b.position.column);
}

/** The scaffold's name-only logo, or a letter-tile logo (a rounded square with one letter, then the name). */
export function isPlaceholderLogo(svg: string): boolean {
  const scaffold = /^<svg[^>]*viewBox="0 0 200 40"[^>]*>\s*<text x="0" y="28"[^>]*>[^<]*<\/text>\s*<\/svg>\s*$/.test(svg);
  const tile = /<rect x="0" y="6" width="28" height="28" rx="6"[^>]*\/>\s*<text[^>]*>[A-Za-z0-9]<\/text>/.test(svg);
  return scaffold || tile;
}
