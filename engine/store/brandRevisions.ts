/**
 * A brand's revisions in the studio, over the generic revision store (./revisions.ts), as three
 * kinds of document keyed by the brand's id:
 * - `brand-draft`: every save (autosave included) — versions 1, 2, … — optimistic: a save over
 *   a version someone saved past is a RevisionConflict carrying their save;
 * - `brand`: what is published. A published revision carries the version of the draft it
 *   published (so versions here are increasing, with gaps), and only this kind is what every
 *   instance loads (engine/store/liveRevisions.ts): saving a draft never rebuilds anything, a
 *   publish does. The newest published revision of a brand overrides its file in brands/.
 * - `brand-schedule`: a publication set for later (`{ version, at, author, state }`); the newest one
 *   per brand is the one that counts. Each instance looks for due ones as it polls; the first to
 *   publish wins (the published kind's primary key), the others see a conflict and stop.
 * Restoring an old version saves its document as a new draft and publishes that, so what is live
 * is always the newest published draft and the history only grows.
 *
 * Every save, publish, schedule and restore is written to the console's audit log with the
 * document before and after (one transaction with the revision).
 *
 * A revision remembers the hash of the brand's file it was made over (base_hash): when a deploy
 * ships a different file, the published revision still applies — nobody's published change is
 * silently dropped — and `fileChanged` says so (brandFileChanged), for the studio and
 * `npm run brands:status`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Brand } from '../../schemas/brand.types';
import type { Store } from './db';
import { audit } from './console';
import { blogHostsOf, hostsOfBrand } from '../validate/brandHosts';
import { fileHash, latestRevision, latestRevisions, revisionAt, revisionHistory, RevisionConflict, saveRevision, type Revision } from './revisions';

export const BRAND_DRAFT = 'brand-draft';
export const BRAND_PUBLISHED = 'brand';
export const BRAND_SCHEDULE = 'brand-schedule';

/** What the studio refuses, with the HTTP status the console answers with. */
export class BrandRevisionError extends Error {
  constructor(
    readonly status: 404 | 409 | 422,
    message: string,
  ) {
    super(message);
    this.name = 'BrandRevisionError';
  }
}

/** A publication refused because another brand published one of its hosts first. */
export class HostTaken extends BrandRevisionError {
  constructor(message: string) {
    super(409, message);
    this.name = 'HostTaken';
  }
}

export { RevisionConflict };

/** A brand's file as the build shipped it: brands/<id>.json (or the extra test brands' folder), undefined for a brand made in the studio. */
export interface BrandFile {
  file: string;
  text: string;
}

const root = () => process.env.LOANSITES_ROOT || process.cwd();

/** The file a brand id is read from, if it has one (brands/, then LOANSITES_EXTRA_BRANDS_DIR). */
export function brandFile(id: string): BrandFile | undefined {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) return undefined;
  const extra = process.env.LOANSITES_EXTRA_BRANDS_DIR?.trim().replace(/\/+$/, '');
  for (const dir of ['brands', ...(extra ? [extra] : [])]) {
    const file = `${dir}/${id}.json`;
    try {
      return { file, text: readFileSync(join(root(), file), 'utf8') };
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

const fileDocument = (file: BrandFile | undefined): Brand | undefined => {
  if (!file) return undefined;
  try {
    return JSON.parse(file.text) as Brand;
  } catch {
    return undefined;
  }
};

/** The hash a revision made over this file carries ('' without a file). */
export const brandBaseHash = (file: BrandFile | undefined): string => (file ? fileHash(file.text) : '');

/** The newest draft of a brand (every save is one), if it has any. */
export const brandDraft = (db: Store, id: string): Promise<Revision<Brand> | undefined> => latestRevision<Brand>(db, BRAND_DRAFT, id);

/** The newest published revision of a brand, if it has any (its file applies otherwise). */
export const publishedBrand = (db: Store, id: string): Promise<Revision<Brand> | undefined> => latestRevision<Brand>(db, BRAND_PUBLISHED, id);

/** The newest published revision of every brand that has one. */
export const publishedBrands = (db: Store): Promise<Map<string, Revision<Brand>>> => latestRevisions<Brand>(db, BRAND_PUBLISHED);

/** The newest draft of every brand that has one. */
export const brandDrafts = (db: Store): Promise<Map<string, Revision<Brand>>> => latestRevisions<Brand>(db, BRAND_DRAFT);

/** One draft of a brand by version; version 0 is the brand's file. */
export async function brandRevision(db: Store, id: string, version: number, file = brandFile(id)): Promise<Revision<Brand> | undefined> {
  if (version === 0) {
    const document = fileDocument(file);
    return document ? { kind: BRAND_DRAFT, key: id, version: 0, document, author: 'file', savedAt: '', baseHash: brandBaseHash(file) } : undefined;
  }
  return revisionAt<Brand>(db, BRAND_DRAFT, id, version);
}

/** Whether the file the deploy brought differs from the one a revision was made over (a brand made in the studio has no file: false). */
export const brandFileChanged = (revision: Revision | undefined, file: BrandFile | undefined = revision ? brandFile(revision.key) : undefined): boolean =>
  !!revision && !!file && revision.baseHash !== fileHash(file.text);

export interface SaveBrandDraft {
  id: string;
  document: Brand;
  /** the draft version the editor read (0: the brand had no draft) */
  expectedVersion: number;
  author: string;
  now?: Date;
  /** the brand's file (default: read from brands/) */
  file?: BrandFile | null;
}

/** Saves a draft over `expectedVersion`; a RevisionConflict (with the other save in `current`) when someone saved since. */
export async function saveBrandDraft(db: Store, save: SaveBrandDraft): Promise<Revision<Brand>> {
  const file = save.file === null ? undefined : (save.file ?? brandFile(save.id));
  const before = save.expectedVersion > 0 ? (await revisionAt<Brand>(db, BRAND_DRAFT, save.id, save.expectedVersion))?.document : fileDocument(file);
  return saveRevision<Brand>(db, {
    kind: BRAND_DRAFT,
    key: save.id,
    document: save.document,
    expectedVersion: save.expectedVersion,
    author: save.author,
    baseHash: brandBaseHash(file),
    before: before ?? null,
    now: save.now,
    action: 'brand_draft_saved',
  });
}

export interface PublishBrand {
  id: string;
  /** the draft version to publish */
  version: number;
  author: string;
  /** later than now: publish then (a schedule); default now */
  at?: Date;
  now?: Date;
}

export interface Published {
  /** the version live now (unchanged when scheduled) */
  publishedVersion: number;
  /** when a later publication was set instead */
  scheduledAt?: string;
  revision?: Revision<Brand>;
}

export interface BrandSchedule {
  version: number;
  /** ISO 8601 UTC */
  at: string;
  author: string;
  state: 'pending' | 'done' | 'cancelled' | 'failed';
  /** why a due publication was not made (state failed) */
  reason?: string;
}

/** The brand's publication set for later, while it is still to come. */
export async function brandSchedule(db: Store, id: string): Promise<(BrandSchedule & { scheduleVersion: number }) | undefined> {
  const r = await latestRevision<BrandSchedule>(db, BRAND_SCHEDULE, id);
  return r && r.document.state === 'pending' ? { ...r.document, scheduleVersion: r.version } : undefined;
}

/**
 * The brand's last publication set for later when it came due and was refused (its draft no
 * longer valid, or gone), with the reason — until another is set: nothing else would tell the
 * editor that the page they expected to go live did not.
 */
export async function refusedBrandSchedule(db: Store, id: string): Promise<(BrandSchedule & { reason: string }) | undefined> {
  const r = await latestRevision<BrandSchedule>(db, BRAND_SCHEDULE, id);
  return r && r.document.state === 'failed' ? { ...r.document, reason: r.document.reason ?? '' } : undefined;
}

/** Sets the brand's schedule over the one read (`over`: a conflict if another instance changed it since), or over the newest. */
async function setSchedule(db: Store, id: string, schedule: BrandSchedule, author: string, now?: Date, over?: Revision<BrandSchedule>): Promise<void> {
  const current = over ?? (await latestRevision<BrandSchedule>(db, BRAND_SCHEDULE, id));
  await saveRevision<BrandSchedule>(db, {
    kind: BRAND_SCHEDULE,
    key: id,
    document: schedule,
    expectedVersion: current?.version ?? 0,
    author,
    baseHash: '',
    before: current?.document ?? null,
    now,
    action: schedule.state === 'pending' ? 'brand_scheduled' : 'revision_saved',
  });
}

/**
 * Publishes a draft now, or sets it to be published at `at` (a later time). A version older than
 * the published one is refused (restore it instead: restoring keeps the history growing).
 */
export async function publishBrand(db: Store, p: PublishBrand): Promise<Published> {
  const now = p.now ?? new Date();
  const draft = await revisionAt<Brand>(db, BRAND_DRAFT, p.id, p.version);
  if (!draft) throw new BrandRevisionError(404, `brand "${p.id}" has no draft version ${p.version}`);
  const published = await publishedBrand(db, p.id);
  if (published && p.version <= published.version)
    throw new BrandRevisionError(
      409,
      published.version === p.version
        ? // said to someone scheduling or restoring the live version: how to put a change live instead
          `version ${p.version} of "${p.id}" is already published; to publish a change, make it in the editor (it saves a new version) and publish that`
        : `version ${p.version} is older than the published version ${published.version}: restore it instead`,
    );
  if (p.at && p.at.getTime() > now.getTime()) {
    await setSchedule(db, p.id, { version: p.version, at: p.at.toISOString(), author: p.author, state: 'pending' }, p.author, now);
    return { publishedVersion: published?.version ?? 0, scheduledAt: p.at.toISOString() };
  }
  const revision = await saveRevision<Brand>(db, {
    kind: BRAND_PUBLISHED,
    key: p.id,
    document: draft.document,
    expectedVersion: published?.version ?? 0,
    version: p.version,
    author: p.author,
    baseHash: draft.baseHash,
    before: published?.document ?? fileDocument(brandFile(p.id)) ?? null,
    now,
    action: 'brand_published',
    lock: HOSTS_LOCK,
    check: (trx) => refuseHostsTaken(trx, p.id, draft.document),
  });
  return { publishedVersion: revision.version, revision };
}

/** The lock two publications hold while their hosts are checked against each other (PostgreSQL; SQLite's write lock serves). */
const HOSTS_LOCK = 'loansites brand hosts';

/** Every host a brand document answers on (its hosts, their automatic dev./test123./.localhost ones, its blog's). */
export const hostsOfDocument = (document: Brand): string[] => {
  try {
    return [...hostsOfBrand(document), ...blogHostsOf(document)];
  } catch {
    return [];
  }
};

/**
 * A publication's hosts checked against every other brand's published revision in the store, in
 * the publication's own transaction. The studio checks a document against the brands its
 * instance serves, but another instance may have published a brand claiming the same host a
 * moment before, which this instance does not know of yet: both would be published, neither
 * would build, and both brands would fall back to their files (or, made in the studio, vanish).
 */
async function refuseHostsTaken(trx: Store, id: string, document: Brand): Promise<void> {
  const mine = new Set(hostsOfDocument(document));
  if (!mine.size) return;
  for (const [other, r] of await latestRevisions<Brand>(trx, BRAND_PUBLISHED)) {
    if (other === id) continue;
    const taken = hostsOfDocument(r.document).find((h) => mine.has(h));
    if (taken)
      throw new HostTaken(`host "${taken}" was published for the brand "${other}" meanwhile (version ${r.version}); a host can belong to one brand only`);
  }
}

/** Another brand's draft, not published yet, that claims a host: which brand, its name, the host, the draft's version. */
export interface DraftHostClaim {
  brand: string;
  name: string;
  host: string;
  version: number;
}

/**
 * The drafts of other brands, newer than what they have published, that claim one of `hosts`
 * (the first of `hosts` each claims, in their order), by brand id. Two drafts may claim one host:
 * a draft is not live, and refusing the second would let a draft no one publishes hold a host.
 * Only the first of them published keeps it (the other's publication is then refused,
 * refuseHostsTaken), so the editor of each is told of the other.
 */
export async function draftsClaimingHosts(db: Store, id: string, hosts: readonly string[]): Promise<DraftHostClaim[]> {
  if (!hosts.length) return [];
  const [drafts, published] = await Promise.all([brandDrafts(db), publishedBrands(db)]);
  const claims: DraftHostClaim[] = [];
  for (const [other, draft] of drafts) {
    if (other === id || draft.version <= (published.get(other)?.version ?? 0)) continue;
    const theirs = new Set(hostsOfDocument(draft.document));
    const host = hosts.find((h) => theirs.has(h));
    if (host) claims.push({ brand: other, name: typeof draft.document.name === 'string' ? draft.document.name : other, host, version: draft.version });
  }
  return claims.sort((a, b) => a.brand.localeCompare(b.brand));
}

/** Calls off the brand's publication set for later, if there is one. */
export async function cancelBrandSchedule(db: Store, id: string, author: string, now?: Date): Promise<boolean> {
  const r = await latestRevision<BrandSchedule>(db, BRAND_SCHEDULE, id);
  if (r?.document.state !== 'pending') return false;
  await setSchedule(db, id, { ...r.document, state: 'cancelled' }, author, now, r);
  return true;
}

/** Publishes an earlier version's document again, as a new draft published at once (one action for the editor). */
export async function restoreBrand(db: Store, r: { id: string; version: number; author: string; now?: Date }): Promise<Published> {
  const old = await brandRevision(db, r.id, r.version);
  if (!old) throw new BrandRevisionError(404, `brand "${r.id}" has no version ${r.version}`);
  const newest = await brandDraft(db, r.id);
  // The newest draft is that version's document already (a second click, or another editor
  // restoring it at the same moment): publish that draft, once, rather than a copy per click.
  if (newest && isDeepStrictEqual(newest.document, old.document)) return publishBrand(db, { id: r.id, version: newest.version, author: r.author, now: r.now });
  const draft = await saveRevision<Brand>(db, {
    kind: BRAND_DRAFT,
    key: r.id,
    document: old.document,
    expectedVersion: newest?.version ?? 0,
    author: r.author,
    baseHash: brandBaseHash(brandFile(r.id)),
    before: newest?.document ?? null,
    now: r.now,
    action: 'brand_restored',
    detail: { restored: r.version },
  });
  return publishBrand(db, { id: r.id, version: draft.version, author: r.author, now: r.now });
}

export interface BrandHistoryEntry {
  version: number;
  /** who saved the draft, and when */
  author: string;
  savedAt: string;
  /** true when this version was published (who and when in publishedBy / publishedAt) */
  published: boolean;
  /** a draft never published */
  draft: boolean;
  publishedBy?: string;
  publishedAt?: string;
  /** the version this one restored */
  restored?: number;
}

/** Every saved version of a brand, newest first: the published ones with who published them and when, drafts marked. */
export async function brandHistory(db: Store, id: string, limit = 500): Promise<BrandHistoryEntry[]> {
  const [drafts, published] = await Promise.all([revisionHistory<Brand>(db, BRAND_DRAFT, id, limit), revisionHistory<Brand>(db, BRAND_PUBLISHED, id, limit)]);
  const byVersion = new Map(published.map((p) => [p.version, p]));
  return drafts.map((d) => {
    const p = byVersion.get(d.version);
    return {
      version: d.version,
      author: d.author,
      savedAt: d.savedAt,
      published: !!p,
      draft: !p,
      ...(p ? { publishedBy: p.author, publishedAt: p.savedAt } : {}),
    };
  });
}

/**
 * Publishes every publication set for a time now past. `check` says why a document may not go
 * live (the validator's first problem, or a deployment's placeholder logo), or undefined: a due
 * publication with problems is not made and is marked failed with the reason. Another instance
 * publishing the same one first is not an error. The ids published.
 */
export async function publishDueBrands(
  db: Store,
  now: Date,
  check?: (id: string, document: Brand) => string | undefined | Promise<string | undefined>,
): Promise<string[]> {
  const done: string[] = [];
  for (const [id, r] of await latestRevisions<BrandSchedule>(db, BRAND_SCHEDULE)) {
    const s = r.document;
    if (s.state !== 'pending' || Date.parse(s.at) > now.getTime()) continue;
    try {
      const draft = await revisionAt<Brand>(db, BRAND_DRAFT, id, s.version);
      const reason = !draft ? `version ${s.version} is gone` : await check?.(id, draft.document);
      if (reason) {
        await setSchedule(db, id, { ...s, state: 'failed', reason }, s.author, now, r);
        continue;
      }
      const published = await publishedBrand(db, id);
      if (!published || published.version < s.version) {
        try {
          await publishBrand(db, { id, version: s.version, author: s.author, now });
        } catch (err) {
          if (!(err instanceof HostTaken)) throw err;
          await setSchedule(db, id, { ...s, state: 'failed', reason: err.message }, s.author, now, r);
          continue;
        }
      }
      await setSchedule(db, id, { ...s, state: 'done' }, s.author, now, r);
      done.push(id);
    } catch (err) {
      if (!(err instanceof RevisionConflict) && !(err instanceof BrandRevisionError)) throw err;
      // another instance published it (or marked it) first
    }
  }
  return done;
}

/** Logos uploaded in the studio: stored once by their content's hash, never changed (the name is the hash). */
export const BRAND_LOGO = 'brand-logo';

export interface StoredLogo {
  /** "{hash}.svg" or "{hash}.png" */
  name: string;
  type: 'image/svg+xml' | 'image/png';
  bytes: Buffer;
}

/** Stores a logo (already checked and sanitised) under its hash, audited; storing the same bytes again is not an error. */
export async function saveBrandLogo(db: Store, logo: StoredLogo & { brand: string; author: string; now?: Date }): Promise<void> {
  const at = (logo.now ?? new Date()).toISOString();
  await db.transaction().execute(async (trx) => {
    const known = await revisionAt(trx, BRAND_LOGO, logo.name, 1);
    if (!known)
      await trx
        .insertInto('document_revisions')
        .values({
          kind: BRAND_LOGO,
          key: logo.name,
          version: 1,
          document: JSON.stringify({ type: logo.type, data: logo.bytes.toString('base64') }),
          author: logo.author,
          saved_at: at,
          base_hash: '',
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
    await audit(trx, {
      actor: logo.author,
      action: 'brand_logo_uploaded',
      target: `brand:${logo.brand}`,
      detail: { logo: logo.name, bytes: logo.bytes.length },
      now: logo.now,
    });
  });
}

/** A stored logo by name, if there is one. */
export async function brandLogo(db: Store, name: string): Promise<StoredLogo | undefined> {
  const r = await revisionAt<{ type: StoredLogo['type']; data: string }>(db, BRAND_LOGO, name, 1);
  return r ? { name, type: r.document.type, bytes: Buffer.from(r.document.data, 'base64') } : undefined;
}
