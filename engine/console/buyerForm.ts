/**
 * The buyer form of the console (pages/_console/buyers/[id].tsx): what an operator may change of a
 * buyer — whether it takes leads, its caps, price, schedule and filters (engine/sale/buyerRevisions.ts
 * MANAGED) — read from a plain form post, checked with the buyer schema and rules exactly as
 * `npm run validate` checks a file (same messages, by JSON pointer), and saved as a revision over
 * the file. Its endpoints, secret variable and everything else stay in the file: a post that
 * carries any other field is refused, so a secret can never be entered here.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import type { Buyer } from '../../schemas/buyer.types';
import { isDeployment } from '../keys/sealing';
import { getBuyers } from '../sale/buyers';
import { applyRevision, baseHashOf, BUYER_KIND, buyerProblems, managedOf, overlayBuyer, type BuyerChange } from '../sale/buyerRevisions';
import { demoBuyer, DEMO_LENDER_ID } from '../sale/demoLender';
import { getCatalog, projectRoot } from '../site/catalog';
import type { Store } from '../store/db';
import { publishRevision } from '../store/liveRevisions';
import { latestRevision, RevisionConflict, saveRevision, type Revision } from '../store/revisions';

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
type Day = (typeof DAYS)[number];

/** The form's fields: text inputs by name, and one checkbox per day (`day-mon` …). */
export const FIELDS = ['status', 'capsPerDay', 'capsPerMonth', 'priceFixed', 'priceFloor', 'timeZone', 'from', 'to', 'filters'] as const;
export type FieldName = (typeof FIELDS)[number] | 'days';
export type FormValues = Record<(typeof FIELDS)[number], string> & { days: string[] };
const ALLOWED = new Set<string>([...FIELDS, ...DAYS.map((d) => `day-${d}`), 'csrf', 'version']);

export interface BuyerBase {
  /** the buyer as its file (or the embedded demo lender) says */
  file: Buyer;
  /** the sha256 of that file's text */
  hash: string;
  /** where it comes from, for the page */
  source: string;
}

/** A buyer's file document and hash; undefined for an unknown id. */
export function buyerBase(id: string, env: Record<string, string | undefined> = process.env): BuyerBase | undefined {
  const catalog = getBuyers(env);
  const loaded = catalog.buyers.get(id);
  if (loaded) {
    const path = isAbsolute(loaded.file) ? loaded.file : join(projectRoot(), loaded.file);
    return { file: loaded.buyer, hash: baseHashOf(readFileSync(/* turbopackIgnore: true */ path, 'utf8')), source: loaded.file };
  }
  const origin = env.LOANSITES_DEMO_LENDER_ORIGIN;
  if (id === DEMO_LENDER_ID && !catalog.buyers.size && !isDeployment(env) && origin) {
    const demo = demoBuyer(origin);
    return { file: demo, hash: baseHashOf(JSON.stringify(demo)), source: 'the built-in demo lender (no buyer files)' };
  }
  return undefined;
}

/** The ids the console can change: every valid buyer file, or the demo lender when it is the one buyer. */
export function editableBuyerIds(env: Record<string, string | undefined> = process.env): string[] {
  const ids = [...getBuyers(env).buyers.keys()].sort();
  return ids.length || !buyerBase(DEMO_LENDER_ID, env) ? ids : [DEMO_LENDER_ID];
}

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

/** A number when the text is one; the text itself otherwise, so the schema says what is wrong with it. */
const numberOr = (s: string): number | string | undefined => (s === '' ? undefined : Number.isFinite(Number(s)) ? Number(s) : s);

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

export type SaveOutcome =
  | { saved: Revision<BuyerChange> }
  | { problems: Problem[]; values: FormValues }
  | { conflict: string; values: FormValues }
  | { refused: number; message: string };

const sameToken = (want: string, got: string | undefined) =>
  typeof got === 'string' && got.length === want.length && timingSafeEqual(Buffer.from(got), Buffer.from(want));

/**
 * A posted buyer form, checked and saved as a new revision (audited; published to every instance).
 * `csrf` is the token the viewer's pages carry; a post without it, or with fields the form does
 * not have, is refused.
 */
export async function saveBuyerForm(db: Store, opts: { id: string; form: Record<string, string>; author: string; csrf: string }): Promise<SaveOutcome> {
  const { id, form } = opts;
  if (!sameToken(opts.csrf, form.csrf)) return { refused: 403, message: 'The form is out of date; reload the page and try again' };
  const foreign = Object.keys(form).filter((k) => !ALLOWED.has(k));
  if (foreign.length)
    return {
      refused: 400,
      message: `This form does not take ${foreign.join(', ')}: endpoints and secrets are set in the buyer's file and the server's environment, never in the console`,
    };
  const base = buyerBase(id);
  if (!base) return { refused: 404, message: 'No such buyer' };
  const expectedVersion = Number(form.version ?? '');
  if (!Number.isInteger(expectedVersion) || expectedVersion < 0) return { refused: 400, message: 'The form has no valid version; reload the page' };
  const values = formValuesFrom(form);
  const { change, problems } = changeOf(values);
  const knownBrands = new Set(getCatalog().brands.keys());
  const all = problems.length ? problems : buyerProblems(overlayBuyer(base.file, change), knownBrands);
  if (all.length) return { problems: all, values };
  const current = await latestRevision<BuyerChange>(db, BUYER_KIND, id);
  const before = managedOf(applyRevision(base.file, current));
  try {
    const saved = await saveRevision(db, { kind: BUYER_KIND, key: id, document: change, expectedVersion, author: opts.author, baseHash: base.hash, before });
    await publishRevision(BUYER_KIND, db);
    return { saved };
  } catch (err) {
    if (err instanceof RevisionConflict) return { conflict: err.message, values };
    throw err;
  }
}
