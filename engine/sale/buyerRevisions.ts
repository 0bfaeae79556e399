/**
 * The buyers the sale uses: the buyer files (engine/sale/buyers.ts) — or the embedded demo lender —
 * overlaid by the newest console revision of each buyer (engine/store/revisions.ts, kept current
 * on every instance by engine/store/liveRevisions.ts).
 *
 * A revision holds only the fields an operator manages in the console (MANAGED): whether the
 * buyer takes leads, its caps, price, schedule and filters. Everything else — its endpoints,
 * secret variable, mode, timeouts, redirect hosts — always comes from the file, so a deploy that
 * changes those takes effect whatever was saved in the console. A deploy that changes a managed
 * field under a newer revision does not override the operator: the revision still applies, and
 * the buyer's console page says the file changed since (baseHash differs from the file's hash).
 */
import type { Buyer } from '../../schemas/buyer.types';
import { currentRevisions } from '../store/liveRevisions';
import { fileHash, type Revision } from '../store/revisions';
import { checkBuyerSchema } from '../validate/schema';
import { checkBuyer, getBuyers, type BuyerCatalog, type LoadedBuyer } from './buyers';

export const BUYER_KIND = 'buyer';
export const MANAGED = ['enabled', 'caps', 'price', 'schedule', 'filters'] as const;
export type BuyerChange = Partial<Pick<Buyer, (typeof MANAGED)[number]>>;

/** The managed fields of a buyer document (absent ones left out). */
export function managedOf(buyer: Buyer): BuyerChange {
  const out: Record<string, unknown> = {};
  for (const k of MANAGED) if (buyer[k] !== undefined) out[k] = buyer[k];
  return out as BuyerChange;
}

/** The buyer with its managed fields replaced by the change's (a field the change lacks is removed). */
export function overlayBuyer(base: Buyer, change: BuyerChange | undefined): Buyer {
  if (!change) return base;
  const out: Record<string, unknown> = { ...base };
  for (const k of MANAGED) delete out[k];
  for (const k of MANAGED) if (change[k] !== undefined) out[k] = change[k];
  return out as unknown as Buyer;
}

/** The schema's and the buyer rules' problems of a document, as `npm run validate` words them. */
export function buyerProblems(doc: unknown, knownBrands?: ReadonlySet<string>): { pointer: string; message: string }[] {
  const schema = checkBuyerSchema(doc);
  return schema.length ? schema.map(({ pointer, message }) => ({ pointer, message })) : checkBuyer(doc as Buyer, knownBrands);
}

/**
 * The problems a change brings to a buyer: those of the document with the change overlaid, less
 * those its base already had. A change touches only the managed fields, so a rule the base broke
 * before any change is not the change's: the built-in demo lender sends no borrower on (its offer
 * is shown on the brand's own host) and names no redirectHosts, and counting that against every
 * change left the one buyer of a fresh install impossible to pause. (A buyer file with a problem
 * is not loaded at all, so for files the two are the same.)
 */
export function changeProblems(base: Buyer, change: BuyerChange | undefined, knownBrands?: ReadonlySet<string>): { pointer: string; message: string }[] {
  const key = (p: { pointer: string; message: string }) => `${p.pointer}\u0000${p.message}`;
  const had = new Set(buyerProblems(base, knownBrands).map(key));
  return buyerProblems(overlayBuyer(base, change), knownBrands).filter((p) => !had.has(key(p)));
}

/** What a buyer's revision was made over: the hash of its file's text, or of the embedded document. */
export const baseHashOf = (text: string): string => fileHash(text);

let derived: { files: BuyerCatalog; revisions: ReadonlyMap<string, Revision>; catalog: BuyerCatalog } | undefined;

/**
 * The buyer files with each buyer's newest revision applied. Recomputed only when the files or
 * the revisions changed (both are replaced, never mutated), so the sale's call is free otherwise.
 * A revision that no longer fits its file (a deploy changed the file) is left out with a log line:
 * the file's document applies until an operator saves again.
 */
export function liveBuyers(env: Record<string, string | undefined> = process.env): BuyerCatalog {
  const files = getBuyers(env);
  const revisions = currentRevisions<BuyerChange>(BUYER_KIND);
  if (derived?.files === files && derived.revisions === revisions) return derived.catalog;
  const buyers = new Map<string, LoadedBuyer>();
  for (const [id, loaded] of files.buyers) buyers.set(id, { ...loaded, buyer: applyRevision(loaded.buyer, revisions.get(id)) });
  const catalog = { ...files, buyers };
  derived = { files, revisions, catalog };
  return catalog;
}

/** One buyer (a file's, or the demo lender's) with its newest revision, when that still fits. */
export function applyRevision(buyer: Buyer, revision: Revision<BuyerChange> | undefined): Buyer {
  if (!revision) return buyer;
  const merged = overlayBuyer(buyer, revision.document);
  const problems = changeProblems(buyer, revision.document);
  if (!problems.length) return merged;
  console.error(
    `[buyers] revision ${revision.version} of "${buyer.id}" no longer fits its file (${problems[0]!.pointer}: ${problems[0]!.message}); the file applies`,
  );
  return buyer;
}

/** The live revision of one buyer (the sale's set applies the same). */
export const buyerRevision = (id: string): Revision<BuyerChange> | undefined => currentRevisions<BuyerChange>(BUYER_KIND).get(id);
