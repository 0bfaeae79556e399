/**
 * The leads list's filter from its query string (pure): a range of whole UTC days, brand, status,
 * buyer, campaign, source, state, a search text, the sort and the keyset cursor. Every value is
 * checked; what is wrong comes back as a sentence for the page (or a 400 for the export), never
 * as a query that fails. The search reads the start of an email or phone only for a role that
 * sees them unmasked: a role that sees them masked could otherwise learn a number digit by digit
 * by asking which prefixes match, so for it the search stays exact (a whole email or phone).
 */
import { may, type Role } from './roles';
import { DAYS_BOUND, dayOf, inDayBounds } from './range';
import { AU_STATES, CA_PROVINCES } from '../browser/regions';
import { STATES } from '../geo/states';
import { VISIT_VALUE_MAX } from '../store/trafficRules';
import { cutToCharacters } from '../browser/visitValue';

export const LEAD_STATUSES = ['sold', 'unsold', 'duplicate', 'suppressed', 'returned', 'test'] as const;
export type LeadStatusFilter = (typeof LEAD_STATUSES)[number];
export const LEAD_SORTS = ['created', 'amount'] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];

export const LEADS_PAGE_SIZE = 50;
/** A page never holds more than this, whatever `size` asks. */
export const LEADS_PAGE_MAX = 200;
const DAY = 86_400_000;
const MAX_DAYS = 366;

export type LeadSearch = { column: 'id'; value: string; prefix: false } | { column: 'email' | 'phone'; value: string; prefix: boolean };

/** Where a page starts: after (or, going back, before) the row with this sort value and id. */
export interface LeadCursor {
  value: string | number;
  id: string;
  back: boolean;
}

export interface LeadFilter {
  /** ISO instants: [from 00:00, the day after `to` 00:00) */
  from?: string;
  to?: string;
  brand?: string;
  status?: LeadStatusFilter;
  buyer?: string;
  campaign?: string;
  source?: string;
  state?: string;
  search?: LeadSearch;
}

export interface LeadListQuery {
  /** the values as typed, for the form and the links (only the valid ones) */
  form: Record<LeadFormField, string>;
  filter: LeadFilter;
  sort: LeadSort;
  dir: 'asc' | 'desc';
  size: number;
  cursor?: LeadCursor;
  /** what was wrong, one sentence each; the list is not read while there is any */
  problems: string[];
}

export const LEAD_FORM_FIELDS = ['from', 'to', 'brand', 'status', 'buyer', 'campaign', 'source', 'state', 'q', 'sort', 'dir', 'size'] as const;
export type LeadFormField = (typeof LEAD_FORM_FIELDS)[number];

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Every region a lead can be stored in (engine/leads/record.ts locate): a US state or DC, a Canadian province or territory, an Australian state or territory. */
const LEAD_REGIONS: ReadonlySet<string> = new Set([
  ...STATES.map((s) => s.code.toUpperCase()),
  ...CA_PROVINCES.map((r) => r.code),
  ...AU_STATES.map((r) => r.code),
]);

/** How a search text is read: a lead id, an email or a phone number (digits), whole or (for a role that sees them) its start. */
export function searchOf(text: string, role: Role): { search?: LeadSearch; problem?: string } {
  const t = text.trim();
  if (!t) return {};
  const plain = role === 'admin';
  if (/^ld_[a-z0-9]+$/i.test(t)) return { search: { column: 'id', value: t, prefix: false } };
  if (t.includes('@') || /[a-z]/i.test(t)) {
    const value = t.toLowerCase();
    if (plain) return { search: { column: 'email', value, prefix: true } };
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) return { problem: 'Your role sees emails masked, so search needs the whole email address (not its start).' };
    return { search: { column: 'email', value, prefix: false } };
  }
  const digits = t.replace(/\D/g, '');
  if (!digits || /[^\d\s()+.-]/.test(t)) return { problem: 'Search takes a lead id (ld_…), an email or a phone number.' };
  // stored as national digits (engine/browser/regions.ts normalisePhoneFor): a US/CA +1 is dropped
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (plain)
    return national.length >= 3 ? { search: { column: 'phone', value: national, prefix: true } } : { problem: 'Type at least 3 digits of the phone number.' };
  if (national.length < 10) return { problem: 'Your role sees phone numbers masked, so search needs the whole phone number (not its start).' };
  return { search: { column: 'phone', value: national, prefix: false } };
}

const encode = (c: { value: string | number; id: string }) => Buffer.from(JSON.stringify([c.value, c.id]), 'utf8').toString('base64url');

/** The cursor a page link carries (opaque to the operator, checked when read back). */
export const cursorText = (c: { value: string | number; id: string }) => encode(c);

function cursorOf(text: string, sort: LeadSort, back: boolean): LeadCursor | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [value, id] = parsed as unknown[];
    if (typeof id !== 'string' || !/^[A-Za-z0-9_]{1,64}$/.test(id)) return undefined;
    if (sort === 'amount' ? typeof value !== 'number' || !Number.isFinite(value) : typeof value !== 'string' || value.length > 40) return undefined;
    return { value: value as string | number, id, back };
  } catch {
    return undefined;
  }
}

export function leadListQuery(q: Record<string, string | undefined>, brands: ReadonlySet<string>, role: Role): LeadListQuery {
  const problems: string[] = [];
  const text = (k: string, max = 200) => (q[k] ?? '').trim().slice(0, max);
  const form = Object.fromEntries(LEAD_FORM_FIELDS.map((f) => [f, ''])) as Record<LeadFormField, string>;
  const filter: LeadFilter = {};

  const from = text('from');
  const to = text('to');
  const f = from ? dayOf(from) : undefined;
  const t = to ? dayOf(to) : undefined;
  if ((from && f === undefined) || (to && t === undefined)) problems.push('Dates must be real days written YYYY-MM-DD.');
  else if ((f !== undefined && !inDayBounds(f)) || (t !== undefined && !inDayBounds(t))) problems.push(`${DAYS_BOUND}.`);
  else if (f !== undefined && t !== undefined && t < f) problems.push('The end date is before the start date.');
  else if (f !== undefined && t !== undefined && (t - f) / DAY + 1 > MAX_DAYS) problems.push(`A date range is at most ${MAX_DAYS} days.`);
  else {
    if (f !== undefined) [filter.from, form.from] = [new Date(f).toISOString(), from];
    if (t !== undefined) [filter.to, form.to] = [new Date(t + DAY).toISOString(), to];
  }

  const brand = text('brand');
  if (brand && !brands.has(brand)) problems.push('There is no brand with that id.');
  else if (brand) filter.brand = form.brand = brand;

  const status = text('status');
  if (status && !(LEAD_STATUSES as readonly string[]).includes(status)) problems.push(`The status must be one of ${LEAD_STATUSES.join(', ')}.`);
  else if (status) filter.status = form.status = status as LeadStatusFilter;

  const buyer = text('buyer');
  if (buyer && !NAME.test(buyer)) problems.push('A buyer id is letters, digits, dots, dashes and underscores.');
  else if (buyer) filter.buyer = form.buyer = buyer;

  for (const key of ['campaign', 'source'] as const) {
    // whole, as long as a visit keeps it (in characters, as ../browser/visitValue.ts counts): a shorter cut would match no lead
    const v = cutToCharacters(text(key, Infinity), VISIT_VALUE_MAX);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(v)) problems.push(`The ${key} has control characters.`);
    else if (v) filter[key] = form[key] = v;
  }

  const state = text('state').toUpperCase();
  if (state && !/^[A-Z]{2,3}$/.test(state)) problems.push('A state is its two- or three-letter code, such as TX or NSW.');
  // a code no lead can hold would only show an empty list, as if no lead came from there
  else if (state && !LEAD_REGIONS.has(state)) problems.push(`There is no state, province or territory ${state}; a state is its code, such as TX, ON or NSW.`);
  else if (state) filter.state = form.state = state;

  const s = searchOf(text('q'), role);
  if (s.problem) problems.push(s.problem);
  else if (s.search) [filter.search, form.q] = [s.search, text('q')];
  if (!may(role, 'leads.view')) delete filter.search;

  const sortText = text('sort');
  if (sortText && !(LEAD_SORTS as readonly string[]).includes(sortText)) problems.push(`Sort by ${LEAD_SORTS.join(' or ')}.`);
  const sort: LeadSort = sortText === 'amount' ? 'amount' : 'created';
  const dirText = text('dir');
  if (dirText && dirText !== 'asc' && dirText !== 'desc') problems.push('The order is asc or desc.');
  const dir = dirText === 'asc' ? 'asc' : 'desc';
  if (sortText) form.sort = sort;
  if (dirText) form.dir = dir;

  const sizeText = text('size');
  let size = LEADS_PAGE_SIZE;
  if (sizeText) {
    const n = Number(sizeText);
    if (!/^\d+$/.test(sizeText) || n < 1) problems.push(`A page size is a whole number from 1 to ${LEADS_PAGE_MAX}.`);
    else size = Math.min(n, LEADS_PAGE_MAX);
    if (size !== LEADS_PAGE_SIZE) form.size = String(size);
  }

  let cursor: LeadCursor | undefined;
  const after = text('after');
  const before = text('before');
  if (after || before) {
    cursor = cursorOf(after || before, sort, !after);
    if (!cursor) problems.push('That page link is not valid any more; start from the first page.');
  }
  return { form, filter, sort, dir, size, ...(cursor ? { cursor } : {}), problems };
}

/** The query string of the list with these values (only the non-empty ones), plus a cursor. */
export function leadListHref(form: Record<LeadFormField, string>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const f of LEAD_FORM_FIELDS) if (form[f]) params.set(f, form[f]);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const s = params.toString();
  return s ? `/leads?${s}` : '/leads';
}
