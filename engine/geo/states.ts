import { STATE_ROWS, type StateRow } from './stateData';
import { displayPlaceName } from './names';

/** A state as the routes and pages use it: the 50 states plus the District of Columbia. */
export interface State {
  /** as pages show it: "District of Columbia" (engine/geo/names.ts) */
  name: string;
  /** as SPEC §3's records write it: "District Of Columbia" */
  recordName: string;
  /** two-letter lowercase code, e.g. "tx" */
  code: string;
  /** lowercase hyphenated name, e.g. "district-of-columbia" */
  slug: string;
  demonym: string;
}

export const slugify = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    // the right single quote written as an escape: one character above U+00FF in the compiled front
    // door would make V8 keep its whole source (~280 KB) as two bytes per character
    .replace(/['\u2019.]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

const toState = (row: StateRow): State => ({
  name: displayPlaceName(row.name),
  recordName: row.name,
  code: row.usps.toLowerCase(),
  slug: slugify(row.name),
  demonym: row.demonym,
});

/** The 51 entries (50 states + DC) of SPEC §3, in alphabetical order; recordName and code are its allName/shortName records. */
export const STATES: readonly State[] = STATE_ROWS.filter((r) => r.kind !== 'territory').map(toState);

const bySlug = new Map(STATES.map((s) => [s.slug, s]));
const byCode = new Map(STATES.map((s) => [s.code, s]));
const rowByName = new Map(STATE_ROWS.map((r) => [r.name.toLowerCase(), r]));
const rowByUsps = new Map(STATE_ROWS.map((r) => [r.usps, r]));

export const stateBySlug = (slug: string): State | undefined => bySlug.get(slug);
export const stateByCode = (code: string): State | undefined => byCode.get(code.toLowerCase());

/** Full-table lookup by postal code (states, DC and territories); throws 'No state found!'. */
export function stateRowByAbbreviation(usps: string): StateRow {
  const row = rowByUsps.get(usps.toUpperCase());
  if (!row) throw new Error('No state found!');
  return row;
}

/** Postal code for a state name (case-insensitive); throws 'No abbreviation found with that state name'. */
export function abbreviationForStateName(name: string): string {
  const row = rowByName.get(name.trim().toLowerCase());
  if (!row) throw new Error('No abbreviation found with that state name');
  return row.usps;
}

/** SPEC §1 and §8: no service in these states (the footer disclaimer). */
export const NO_SERVICE_STATES = ['Arkansas', 'New York', 'Vermont', 'West Virginia', 'Washington', 'Pennsylvania'] as const;

/** SPEC §9: the separate restricted-states list. */
const RESTRICTED_STATES = [
  'Vermont',
  'New Jersey',
  'Arizona',
  'Connecticut',
  'Georgia',
  'Arkansas',
  'Maryland',
  'New York',
  'Massachusetts',
  'North Carolina',
  'District Of Columbia',
  'Pennsylvania',
  'West Virginia',
] as const;

/** SPEC §9: states the title site leaves out of its state links. */
export const TITLE_EXCLUDED_STATES = [
  'Alaska',
  'Colorado',
  'Connecticut',
  'Hawaii',
  'Iowa',
  'Indiana',
  'Kentucky',
  'Massachusetts',
  'Maryland',
  'Maine',
  'Michigan',
  'North Carolina',
  'North Dakota',
  'New Jersey',
  'New York',
  'Ohio',
  'Pennsylvania',
  'Vermont',
  'Washington',
  'West Virginia',
] as const;

/** The lists above by display name (State.name): "District Of Columbia" is looked up as "District of Columbia". */
export const STATE_SETS = {
  noService: new Set<string>(NO_SERVICE_STATES.map(displayPlaceName)),
  restricted: new Set<string>(RESTRICTED_STATES.map(displayPlaceName)),
  titleExcluded: new Set<string>(TITLE_EXCLUDED_STATES.map(displayPlaceName)),
} as const;
export type StateSetName = keyof typeof STATE_SETS;

/** "Arkansas, New York, … and Pennsylvania" */
export const listInWords = (items: readonly string[]): string =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
