/**
 * Text a visitor would not read as the operator wrote it, told where it is by `npm run validate`
 * and by the studio at the field, in the same words:
 * - the invisible characters that reorder the text after them (the bidirectional embeddings,
 *   overrides and isolates): in a brand's copy a right-to-left override shows visitors a phone
 *   number, an amount or a disclaimer backwards, and nobody editing the text sees why (the brands
 *   are written left to right);
 * - a text of spaces only: it passes a length check, yet visitors get an empty heading, a link
 *   without a name, "© 2026 . All rights reserved." — a field cleared with the space bar.
 */
import { encodePointer } from '../browser/jsonPointer';
import type { Problem } from './problems';

const NAMES: Record<string, string> = {
  '\u202a': 'left-to-right embedding',
  '\u202b': 'right-to-left embedding',
  '\u202c': 'pop directional formatting',
  '\u202d': 'left-to-right override',
  '\u202e': 'right-to-left override',
  '\u2066': 'left-to-right isolate',
  '\u2067': 'right-to-left isolate',
  '\u2068': 'first strong isolate',
  '\u2069': 'pop directional isolate',
};
const CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** Why a text cannot be shown to visitors as it is, if it holds a direction control. */
export function directionControlProblem(text: string): string | undefined {
  const found = CONTROL.exec(text)?.[0];
  if (!found) return undefined;
  const code = `U+${found.codePointAt(0)!.toString(16).toUpperCase()}`;
  return `this text has an invisible ${NAMES[found]} character (${code}), which shows visitors the text after it reordered; delete it (retype the text around it if you cannot find it)`;
}

/** Spaces (any kind, the zero-width ones too) and nothing else. */
const BLANK = /^[\s\u200b-\u200d\u2060\ufeff]+$/;

/** Why a text cannot be shown to visitors as it is: a direction control in it, or nothing but spaces. */
export const unseenTextProblem = (text: string): string | undefined =>
  BLANK.test(text) ? 'this text is only spaces, which visitors see as nothing; write the text, or remove the entry' : directionControlProblem(text);

/** Every string in a document visitors would not read as written (unseenTextProblem), at its pointer. */
export function unseenTextProblems(value: unknown, path: string[] = []): Problem[] {
  if (typeof value === 'string') {
    const message = unseenTextProblem(value);
    return message ? [{ pointer: encodePointer(path), message }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => unseenTextProblems(v, [...path, String(i)]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => unseenTextProblems(v, [...path, k]));
  return [];
}
