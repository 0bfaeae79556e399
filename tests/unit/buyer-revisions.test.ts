/**
 * The console's revisions of documents (buyers now), on SQLite and PostgreSQL: versions count up,
 * a save over a version someone else saved past is refused naming them, every save is audited with
 * the document before and after, and the sale's buyer is the file overlaid by its newest revision
 * (fields the console does not manage always come from the file).
 */
import { describe, expect, it } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';
import { buildBuyerCatalog } from '../../engine/sale/buyers';
import { applyRevision, buyerProblems, managedOf, overlayBuyer, type BuyerChange } from '../../engine/sale/buyerRevisions';
import { fileHash, latestRevision, latestRevisions, revisionHistory, revisionStamp, RevisionConflict, saveRevision } from '../../engine/store/revisions';
import { bothStores, migratedStore } from '../support/bothStores';

const stores = bothStores('loansites-revisions-');

const FILE = {
  $schema: '../schemas/buyer.schema.json',
  id: 'acme',
  displayName: 'Acme Lending',
  mode: 'ping-post',
  endpoints: { ping: 'https://acme.example/ping', post: 'https://acme.example/post' },
  secretEnv: 'BUYER_ACME_SECRET',
  redirectHosts: ['acme.example'],
  caps: { perDay: 50 },
  price: { floor: 5 },
};
const fileText = JSON.stringify(FILE);
const fileBuyer = () => buildBuyerCatalog([{ file: 'buyers/acme.json', text: fileText }]).buyers.get('acme')!.buyer;

describe.each(stores.kinds('revisions.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);

  it('numbers the revisions of a document 1, 2, … and keeps its history, newest first', async () => {
    const base = fileHash(fileText);
    const one = await saveRevision(db(), {
      kind: 'buyer',
      key: 'v1',
      document: { enabled: false },
      expectedVersion: 0,
      author: 'a@example.com',
      baseHash: base,
      before: {},
    });
    const two = await saveRevision(db(), {
      kind: 'buyer',
      key: 'v1',
      document: { enabled: true },
      expectedVersion: 1,
      author: 'b@example.com',
      baseHash: base,
      before: {},
    });
    expect([one.version, two.version]).toEqual([1, 2]);
    expect(await latestRevision(db(), 'buyer', 'v1')).toMatchObject({ version: 2, document: { enabled: true }, author: 'b@example.com', baseHash: base });
    expect((await revisionHistory(db(), 'buyer', 'v1')).map((r) => r.author)).toEqual(['b@example.com', 'a@example.com']);
    // another kind with the same key is another document
    expect(await latestRevision(db(), 'brand', 'v1')).toBeUndefined();
  });

  it('refuses a save over a version someone saved past, naming who, and keeps their change', async () => {
    await saveRevision(db(), {
      kind: 'buyer',
      key: 'c1',
      document: { enabled: false },
      expectedVersion: 0,
      author: 'first@example.com',
      baseHash: '',
      before: {},
    });
    const stale = saveRevision(db(), {
      kind: 'buyer',
      key: 'c1',
      document: { enabled: true },
      expectedVersion: 0,
      author: 'late@example.com',
      baseHash: '',
      before: {},
    });
    await expect(stale).rejects.toBeInstanceOf(RevisionConflict);
    await expect(stale).rejects.toThrow(/first@example\.com changed this .*version 1/);
    expect(await latestRevision(db(), 'buyer', 'c1')).toMatchObject({ version: 1, author: 'first@example.com', document: { enabled: false } });
    // two saves over the same version at once: exactly one wins
    const both = await Promise.allSettled(
      ['x@example.com', 'y@example.com'].map((author) =>
        saveRevision(db(), { kind: 'buyer', key: 'c1', document: { enabled: true }, expectedVersion: 1, author, baseHash: '', before: {} }),
      ),
    );
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(both.find((r) => r.status === 'rejected')).toMatchObject({ reason: expect.any(RevisionConflict) });
  });

  it('audits every save in the console audit log with the document before and after', async () => {
    await saveRevision(db(), {
      kind: 'buyer',
      key: 'a1',
      document: { caps: { perDay: 9 } },
      expectedVersion: 0,
      author: 'ops@example.com',
      baseHash: '',
      before: { caps: { perDay: 50 } },
    });
    const row = await db().selectFrom('console_audit').selectAll().where('target', '=', 'buyer:a1').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ actor: 'ops@example.com', action: 'revision_saved' });
    expect(JSON.parse(row.detail)).toEqual({ version: 1, before: { caps: { perDay: 50 } }, after: { caps: { perDay: 9 } } });
  });

  it('gives the newest revision of each document, and a stamp that changes with every save', async () => {
    const before = await revisionStamp(db(), 'buyer');
    await saveRevision(db(), { kind: 'buyer', key: 'n1', document: { enabled: false }, expectedVersion: 0, author: 'a', baseHash: '', before: {} });
    await saveRevision(db(), { kind: 'buyer', key: 'n1', document: { enabled: true }, expectedVersion: 1, author: 'a', baseHash: '', before: {} });
    await saveRevision(db(), { kind: 'buyer', key: 'n2', document: { price: { floor: 3 } }, expectedVersion: 0, author: 'a', baseHash: '', before: {} });
    expect(await revisionStamp(db(), 'buyer')).toBe(before + 3);
    const latest = await latestRevisions(db(), 'buyer');
    expect(latest.get('n1')).toMatchObject({ version: 2, document: { enabled: true } });
    expect(latest.get('n2')).toMatchObject({ version: 1, document: { price: { floor: 3 } } });
  });

  it('overlays a buyer file with its stored revision: the managed fields from the revision, the rest from the file', async () => {
    const file = fileBuyer();
    const change: BuyerChange = { ...managedOf(file), enabled: false, caps: { perDay: 7, perMonth: 100 } };
    await saveRevision(db(), {
      kind: 'buyer',
      key: 'acme',
      document: change,
      expectedVersion: 0,
      author: 'a',
      baseHash: fileHash(fileText),
      before: managedOf(file),
    });
    const live = applyRevision(file, (await latestRevisions<BuyerChange>(db(), 'buyer')).get('acme'));
    expect(live).toMatchObject({
      id: 'acme',
      enabled: false,
      caps: { perDay: 7, perMonth: 100 },
      price: { floor: 5 },
      endpoints: FILE.endpoints,
      secretEnv: 'BUYER_ACME_SECRET',
    });
  });
});

describe('a buyer revision over its file', () => {
  it('removes a managed field the revision leaves out and keeps what it does not manage', () => {
    const b = overlayBuyer(fileBuyer(), { enabled: true });
    expect(b.caps).toBeUndefined();
    expect(b.price).toBeUndefined();
    expect(b.endpoints).toEqual(FILE.endpoints);
  });

  it('is set aside (the file applies) when the file changed so that the revision no longer fits', () => {
    const file = { ...fileBuyer(), price: { fixed: 10 } } as Buyer;
    const revision = { kind: 'buyer', key: 'acme', version: 1, document: { price: { fixed: 2, floor: 5 } }, author: 'a', savedAt: '', baseHash: '' };
    expect(buyerProblems(overlayBuyer(file, revision.document))[0]).toMatchObject({ pointer: '/price/fixed' });
    expect(applyRevision(file, revision)).toBe(file);
  });

  it('words a bad cap as `npm run validate` does', () => {
    expect(buyerProblems(overlayBuyer(fileBuyer(), { caps: { perDay: -1 } }))).toEqual([{ pointer: '/caps/perDay', message: expect.stringMatching(/0/) }]);
  });
});
