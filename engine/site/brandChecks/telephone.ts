/**
 * The brand's own telephone (organization.telephone) checked as a number of the brand's country
 * (engine/site/brandPhone.ts): by `npm run validate` on every brand file and by the studio on a
 * draft (its problems, and Publish refused while there is one), at the field, in the validator's
 * "file:line:col /pointer: message" line. Not one of the catalog's checks (./semantic.ts): the
 * front door builds the catalog at start-up, and the phone metadata is kept out of it.
 */
import { isCountry } from '../../browser/regions';
import type { BrandProblem } from '../brandOverlay';
import { getCatalog, revisionText } from '../catalog';
import { locate, parseJson, type Position } from '../../validate/locate';
import { readBrandPhone } from '../brandPhone';

export const TELEPHONE_POINTER = '/organization/telephone';

export interface TelephoneProblem {
  file: string;
  pointer: string;
  message: string;
  /** where the telephone is written in the text (undefined when the text does not parse) */
  position?: Position;
  /** as `npm run validate` prints it */
  text: string;
}

/**
 * Why the telephone of a brand document, as written in `text`, is not the brand's number: none
 * when it is (or when there is no telephone or country to read: the schema says so already).
 */
export function telephoneProblemsIn(file: string, text: string): TelephoneProblem[] {
  const parsed = parseJson(text);
  const brand = parsed.value as { country?: unknown; organization?: { telephone?: unknown } } | undefined;
  const telephone = brand?.organization?.telephone;
  const country = brand?.country;
  if (typeof telephone !== 'string' || typeof country !== 'string' || !isCountry(country)) return [];
  const read = readBrandPhone(telephone, country);
  if (!('problem' in read)) return [];
  const position = locate(text, parsed.tree, TELEPHONE_POINTER);
  const at = position ? `:${position.line}:${position.column}` : '';
  return [{ file, pointer: TELEPHONE_POINTER, message: read.problem, position, text: `${file}${at} ${TELEPHONE_POINTER}: ${read.problem}` }];
}

/**
 * The same for a brand document in the studio (a draft, a version to publish or restore), as the
 * studio lists its problems beside the validator's: its file is the brand's own, or
 * brands/{id}.json for a brand made in the studio, as checkBrandDocument names it.
 */
export function telephoneProblemsOf(id: string, document: unknown): BrandProblem[] {
  const file = getCatalog().brands.get(id)?.file ?? `brands/${id}.json`;
  return telephoneProblemsIn(file, revisionText(document)).map(({ pointer, message, text, file: f }) => ({ pointer, message, text, file: f }));
}
