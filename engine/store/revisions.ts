/**
 * Revisions of documents an operator changes in the console, over the files they come from: a
 * document has a kind ('buyer'; the brand studio's 'brand' later) and a key (the buyer's id), and
 * each save is a new revision — its JSON document, version (1, 2, …), author, time, and the hash
 * of the file it was made over (so a later deploy that changes the file is noticed, not hidden).
 *
 * Saving is optimistic: the caller says which version it read (0: none yet) and a save over an
 * older one is refused with a RevisionConflict naming who saved since. Every save is written to
 * the console's audit log with the document before and after, in the same transaction.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Store } from './db';
import { audit, type AuditAction } from './console';
import { isPostgresStore } from './trafficPartitions';

export interface DocumentRevisionsTable {
  kind: string;
  key: string;
  version: number;
  /** JSON */
  document: string;
  /** the console user's email (or "cli") */
  author: string;
  /** ISO 8601 UTC */
  saved_at: string;
  /** sha256 (hex) of the file's text the revision was made over; '' when there was no file */
  base_hash: string;
}

export interface Revision<T = unknown> {
  kind: string;
  key: string;
  version: number;
  document: T;
  author: string;
  savedAt: string;
  baseHash: string;
}

/**
 * A save over a version that is not the newest: someone saved since (`current` is their save), or
 * the version named was never saved (a stale or hand-made request: `current` is the newest, if any).
 */
export class RevisionConflict extends Error {
  constructor(
    readonly current: Revision | undefined,
    readonly expectedVersion: number,
  ) {
    super(
      current && current.version > expectedVersion
        ? `${current.author} changed this at ${current.savedAt} (version ${current.version}) after you opened it (version ${expectedVersion}); reload to see their change, then make yours again`
        : `there is no version ${expectedVersion} to save over (the newest is ${current?.version ?? 0}); reload, then make your change again`,
    );
    this.name = 'RevisionConflict';
  }
}

export const fileHash = (text: string): string => createHash('sha256').update(text).digest('hex');

const revisionOf = <T>(r: DocumentRevisionsTable): Revision<T> => ({
  kind: r.kind,
  key: r.key,
  version: Number(r.version),
  document: JSON.parse(r.document) as T,
  author: r.author,
  savedAt: r.saved_at,
  baseHash: r.base_hash,
});

/** The newest revision of one document, if it has any. */
export async function latestRevision<T = unknown>(db: Store, kind: string, key: string): Promise<Revision<T> | undefined> {
  return (await revisionHistory<T>(db, kind, key, 1))[0];
}

/** The newest revision of every document of a kind, by key. */
export async function latestRevisions<T = unknown>(db: Store, kind: string): Promise<Map<string, Revision<T>>> {
  const rows = await db
    .selectFrom('document_revisions as r')
    .selectAll('r')
    .where('r.kind', '=', kind)
    .where(({ eb, selectFrom }) =>
      eb(
        'r.version',
        '=',
        selectFrom('document_revisions as n')
          .select(({ fn }) => fn.max('n.version').as('v'))
          .whereRef('n.kind', '=', 'r.kind')
          .whereRef('n.key', '=', 'r.key'),
      ),
    )
    .execute();
  return new Map(rows.map((r) => [r.key, revisionOf<T>(r)]));
}

/** The largest version the store holds (`document_revisions.version` is a 32-bit integer in PostgreSQL). */
export const MAX_VERSION = 2 ** 31 - 1;
const isVersion = (v: number) => Number.isInteger(v) && v >= 0 && v <= MAX_VERSION;

/** One revision of a document, by version (none for a number no version can be). */
export async function revisionAt<T = unknown>(db: Store, kind: string, key: string, version: number): Promise<Revision<T> | undefined> {
  if (!isVersion(version)) return undefined;
  const row = await db
    .selectFrom('document_revisions')
    .selectAll()
    .where('kind', '=', kind)
    .where('key', '=', key)
    .where('version', '=', version)
    .executeTakeFirst();
  return row ? revisionOf<T>(row) : undefined;
}

/** A document's history, newest first. */
export async function revisionHistory<T = unknown>(db: Store, kind: string, key: string, limit = 20): Promise<Revision<T>[]> {
  const rows = await db
    .selectFrom('document_revisions')
    .selectAll()
    .where('kind', '=', kind)
    .where('key', '=', key)
    .orderBy('version', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => revisionOf<T>(r));
}

/**
 * A number that changes whenever a revision of the kind is saved (revisions are never deleted, so
 * their count only grows): what every instance polls, one indexed count, to learn of a new one.
 */
export async function revisionStamp(db: Store, kind: string): Promise<number> {
  const r = await db
    .selectFrom('document_revisions')
    .select(({ fn }) => fn.countAll().as('n'))
    .where('kind', '=', kind)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export interface SaveRevision<T> {
  kind: string;
  key: string;
  document: T;
  /** the version the author read (0 when the document had no revision yet) */
  expectedVersion: number;
  author: string;
  baseHash: string;
  /** the document as the author saw it (the file's when there was no revision), for the audit log */
  before: unknown;
  now?: Date;
  /**
   * The version the new revision gets (default expectedVersion + 1): a kind whose versions follow
   * another kind's — a brand's published revisions carry the number of the draft they publish —
   * may skip numbers, never go back.
   */
  version?: number;
  /** the audit log's action (default revision_saved) and what its entry says besides the document before and after */
  action?: AuditAction;
  detail?: Record<string, unknown>;
  /**
   * A check of the saved revision against other documents, in the same transaction after the
   * insert (so, on SQLite, under the write lock): throwing rolls the save back. With `lock`, a
   * PostgreSQL advisory lock of that name is held through the transaction first, so two saves
   * checked against each other are never checked side by side.
   */
  check?: (trx: Store) => Promise<void>;
  lock?: string;
}

/** Saves a new revision over `expectedVersion`; throws RevisionConflict when someone saved since. */
export async function saveRevision<T>(db: Store, save: SaveRevision<T>): Promise<Revision<T>> {
  const at = (save.now ?? new Date()).toISOString();
  // a version the column cannot hold (a hand-made request's 1e20) was never saved: PostgreSQL would
  // refuse to compare with it, and past 2^53 expectedVersion + 1 even equals it
  if (!isVersion(save.expectedVersion)) throw new RevisionConflict(await latestRevision(db, save.kind, save.key), save.expectedVersion);
  const version = save.version ?? save.expectedVersion + 1;
  if (!(version > save.expectedVersion)) throw new Error(`a revision's version (${version}) must be newer than the one it follows (${save.expectedVersion})`);
  try {
    await db.transaction().execute(async (trx) => {
      if (save.lock && isPostgresStore(db)) await sql`select pg_advisory_xact_lock(hashtext(${save.lock}))`.execute(trx);
      const current = await latestRevision(trx, save.kind, save.key);
      if ((current?.version ?? 0) !== save.expectedVersion) throw new RevisionConflict(current, save.expectedVersion);
      await trx
        .insertInto('document_revisions')
        .values({
          kind: save.kind,
          key: save.key,
          version,
          document: JSON.stringify(save.document),
          author: save.author,
          saved_at: at,
          base_hash: save.baseHash,
        })
        .execute();
      await save.check?.(trx);
      await audit(trx, {
        actor: save.author,
        action: save.action ?? 'revision_saved',
        target: `${save.kind}:${save.key}`,
        detail: { version, ...save.detail, before: save.before, after: save.document },
        now: save.now,
      });
    });
  } catch (err) {
    if (err instanceof RevisionConflict) throw err;
    // Two saves over the same version at once: the primary key let one in; the other is a conflict.
    const current = await latestRevision(db, save.kind, save.key).catch(() => undefined);
    if (current && current.version > save.expectedVersion) throw new RevisionConflict(current, save.expectedVersion);
    throw err;
  }
  return { kind: save.kind, key: save.key, version, document: save.document, author: save.author, savedAt: at, baseHash: save.baseHash };
}
