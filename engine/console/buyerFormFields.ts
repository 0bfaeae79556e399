/**
 * The buyer form's fields (pages/_console/buyers/[id].tsx), pure so the page can use them: a
 * buyer document's managed fields as the form's text values and back. A number field that does
 * not hold a number is passed on as its text, so the schema says what is wrong with it in the
 * words `npm run validate` uses; a problem's JSON pointer names the field it is shown at.
 */
import type { Buyer } from '../../schemas/buyer.types';
import type { BuyerChange } from '../sale/buyerRevisions';

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
type Day = (typeof DAYS)[number];

/** The form's fields: text inputs by name, and one checkbox per day (`day-mon` …). */
export const FIELDS = ['status', 'capsPerDay', 'capsPerMonth', 'priceFixed', 'priceFloor', 'timeZone', 'from', 'to', 'filters'] as const;
export type FieldName = (typeof FIELDS)[number] | 'days';
export type FormValues = Record<(typeof FIELDS)[number], string> & { days: string[] };
/** Every name the form posts (with the CSRF token and the version it was read at). */
export const ALLOWED = new Set<string>([...FIELDS, ...DAYS.map((d) => `day-${d}`), 'csrf', 'version']);

const text = (n: number | undefined) => (n === undefined ? '' : String(n));

/** The form's values for a buyer document. */
export function formValuesOf(buyer: Buyer): FormValues {
  return {
    status: buyer.enabled === false ? 'paused' : 'active',
    capsPerDay: text(buyer.caps?.perDay),
    capsPerMonth: text(buyer.caps?.perMonth),
    priceFixed: text(buyer.price?.fixed),
    priceFloor: text(buyer.price?.floor),
    timeZone: buyer.schedule?.timeZone ?? '',
    from: buyer.schedule?.from ?? '',
    to: buyer.schedule?.to ?? '',
    days: [...(buyer.schedule?.days ?? [])],
    filters: buyer.filters ? JSON.stringify(buyer.filters, null, 2) : '',
  };
}

/** The posted values (a field left out is empty). */
export function formValuesFrom(form: Record<string, string>): FormValues {
  const out = Object.fromEntries(FIELDS.map((f) => [f, (form[f] ?? '').trim()])) as unknown as FormValues;
  out.days = DAYS.filter((d) => form[`day-${d}`] !== undefined);
  return out;
}

/**
 * A number when the text is one written plainly (digits, a sign, a decimal point); the text itself
 * otherwise, so the schema says what is wrong with it. Number() alone would read "0x10" as 16 and
 * "1e3" as 1000: a cap or price the operator did not type.
 */
const numberOr = (s: string): number | string | undefined => (s === '' ? undefined : /^-?(\d+(\.\d*)?|\.\d+)$/.test(s) ? Number(s) : s);

const compact = <T extends object>(o: T): T | undefined => {
  const kept = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return Object.keys(kept).length ? (kept as T) : undefined;
};

export type Problem = { pointer: string; message: string };

/** The change a form asks for, and the problems that stop it before the schema (filters that are not JSON). */
export function changeOf(v: FormValues): { change: BuyerChange; problems: Problem[] } {
  const problems: Problem[] = [];
  let filters: unknown;
  if (v.filters) {
    try {
      filters = JSON.parse(v.filters);
    } catch (err) {
      problems.push({ pointer: '/filters', message: `is not JSON: ${(err as Error).message}` });
    }
  }
  const schedule =
    v.timeZone || v.from || v.to || v.days.length
      ? compact({ timeZone: v.timeZone || undefined, days: v.days.length ? (v.days as Day[]) : undefined, from: v.from || undefined, to: v.to || undefined })
      : undefined;
  const change = {
    enabled: v.status === 'paused' ? false : v.status === 'active' ? true : v.status,
    caps: compact({ perDay: numberOr(v.capsPerDay), perMonth: numberOr(v.capsPerMonth) }),
    price: compact({ fixed: numberOr(v.priceFixed), floor: numberOr(v.priceFloor) }),
    schedule,
    filters,
  };
  return { change: compact(change) as BuyerChange, problems };
}

const FIELD_OF: [prefix: string, field: FieldName][] = [
  ['/enabled', 'status'],
  ['/caps/perMonth', 'capsPerMonth'],
  ['/caps', 'capsPerDay'],
  ['/price/fixed', 'priceFixed'],
  ['/price', 'priceFloor'],
  ['/schedule/days', 'days'],
  ['/schedule/from', 'from'],
  ['/schedule/to', 'to'],
  ['/schedule', 'timeZone'],
  ['/filters', 'filters'],
];

/** The form field a problem belongs to (by its JSON pointer), if any. */
export const fieldOfPointer = (pointer: string): FieldName | undefined =>
  FIELD_OF.find(([prefix]) => pointer === prefix || pointer.startsWith(prefix + '/'))?.[1];
