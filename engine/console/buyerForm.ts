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
import { applyRevision, baseHashOf, BUYER_KIND, changeProblems, managedOf, type BuyerChange } from '../sale/buyerRevisions';
import { demoBuyer, DEMO_LENDER_ID } from '../sale/demoLender';
import { getCatalog, projectRoot } from '../site/catalog';
import { ALLOWED, changeOf, formValuesFrom, type FormValues, type Problem } from './buyerFormFields';
import type { Store } from '../store/db';
import { publishRevision } from '../store/liveRevisions';
import { latestRevision, RevisionConflict, saveRevision, type Revision } from '../store/revisions';

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
  const all = problems.length ? problems : changeProblems(base.file, change, knownBrands);
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
