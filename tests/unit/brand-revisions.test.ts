/**
 * A brand's studio revisions on SQLite and PostgreSQL: drafts numbered and kept, a save over a
 * version someone saved past refused with their save, publishing (now or at a set time) and
 * restoring, the history with drafts marked, every step audited, and a deploy's changed file noticed.
 */
import { describe, expect, it } from 'vitest';
import type { Brand } from '../../schemas/brand.types';
import {
  brandDraft,
  brandFileChanged,
  brandHistory,
  brandRevision,
  brandSchedule,
  cancelBrandSchedule,
  publishBrand,
  publishDueBrands,
  publishedBrand,
  restoreBrand,
  RevisionConflict,
  saveBrandDraft,
} from '../../engine/store/brandRevisions';
import { bothStores, migratedStore } from '../support/bothStores';

const stores = bothStores('loansites-brand-revisions-');

const doc = (id: string, name: string) => ({ id, name }) as unknown as Brand;
const FILE = (id: string, name = 'From the file') => ({ file: `brands/${id}.json`, text: JSON.stringify(doc(id, name)) });

describe.each(stores.kinds('brand-revisions.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);

  it('keeps every draft save, numbered 1, 2, …, the newest being the draft', async () => {
    expect(await brandDraft(db(), 's1')).toBeUndefined();
    const one = await saveBrandDraft(db(), { id: 's1', document: doc('s1', 'One'), expectedVersion: 0, author: 'a@example.com', file: FILE('s1') });
    const two = await saveBrandDraft(db(), { id: 's1', document: doc('s1', 'Two'), expectedVersion: 1, author: 'b@example.com', file: FILE('s1') });
    expect([one.version, two.version]).toEqual([1, 2]);
    expect(await brandDraft(db(), 's1')).toMatchObject({ version: 2, author: 'b@example.com', document: { name: 'Two' } });
    expect((await brandRevision(db(), 's1', 1))?.document.name).toBe('One');
    // version 0 is the file
    expect((await brandRevision(db(), 's1', 0, FILE('s1')))?.document.name).toBe('From the file');
    // saving a draft publishes nothing
    expect(await publishedBrand(db(), 's1')).toBeUndefined();
  });

  it('refuses a save over a version someone saved past, with their save, and loses neither', async () => {
    await saveBrandDraft(db(), { id: 'c1', document: doc('c1', 'First'), expectedVersion: 0, author: 'first@example.com', file: null });
    const late = saveBrandDraft(db(), { id: 'c1', document: doc('c1', 'Late'), expectedVersion: 0, author: 'late@example.com', file: null });
    await expect(late).rejects.toBeInstanceOf(RevisionConflict);
    const err = (await late.catch((e: unknown) => e)) as RevisionConflict;
    expect(err.current).toMatchObject({ version: 1, author: 'first@example.com', document: { name: 'First' } });
    expect(err.message).toMatch(/first@example\.com changed this/);
    // reloaded, the late editor saves over version 1
    const again = await saveBrandDraft(db(), { id: 'c1', document: doc('c1', 'Late'), expectedVersion: 1, author: 'late@example.com', file: null });
    expect(again.version).toBe(2);
  });

  it('publishes a draft, keeps the draft versions, and refuses an older one (restore is for that)', async () => {
    for (let v = 0; v < 3; v++)
      await saveBrandDraft(db(), { id: 'p1', document: doc('p1', `V${v + 1}`), expectedVersion: v, author: 'ed@example.com', file: null });
    const first = await publishBrand(db(), { id: 'p1', version: 2, author: 'pub@example.com' });
    expect(first.publishedVersion).toBe(2);
    expect(await publishedBrand(db(), 'p1')).toMatchObject({ version: 2, author: 'pub@example.com', document: { name: 'V2' } });
    await publishBrand(db(), { id: 'p1', version: 3, author: 'pub@example.com' });
    await expect(publishBrand(db(), { id: 'p1', version: 2, author: 'pub@example.com' })).rejects.toThrow(/older than the published version 3: restore it/);
    await expect(publishBrand(db(), { id: 'p1', version: 9, author: 'pub@example.com' })).rejects.toThrow(/no draft version 9/);
  });

  it('restores an earlier version in one action: a new version with the old document, published', async () => {
    await saveBrandDraft(db(), { id: 'r1', document: doc('r1', 'Old text'), expectedVersion: 0, author: 'ed@example.com', file: null });
    await publishBrand(db(), { id: 'r1', version: 1, author: 'ed@example.com' });
    await saveBrandDraft(db(), { id: 'r1', document: doc('r1', 'New text'), expectedVersion: 1, author: 'ed@example.com', file: null });
    await publishBrand(db(), { id: 'r1', version: 2, author: 'ed@example.com' });
    const restored = await restoreBrand(db(), { id: 'r1', version: 1, author: 'boss@example.com' });
    expect(restored.publishedVersion).toBe(3);
    expect(await publishedBrand(db(), 'r1')).toMatchObject({ version: 3, author: 'boss@example.com', document: { name: 'Old text' } });
    expect(await brandDraft(db(), 'r1')).toMatchObject({ version: 3, document: { name: 'Old text' } });
  });

  it('lists the history newest first: published versions with who published them and when, drafts marked', async () => {
    const at = (m: number) => new Date(Date.UTC(2026, 10, 1, 12, m));
    await saveBrandDraft(db(), { id: 'h1', document: doc('h1', 'A'), expectedVersion: 0, author: 'ann@example.com', file: null, now: at(0) });
    await saveBrandDraft(db(), { id: 'h1', document: doc('h1', 'B'), expectedVersion: 1, author: 'ann@example.com', file: null, now: at(1) });
    await publishBrand(db(), { id: 'h1', version: 2, author: 'bob@example.com', now: at(2) });
    await saveBrandDraft(db(), { id: 'h1', document: doc('h1', 'C'), expectedVersion: 2, author: 'ann@example.com', file: null, now: at(3) });
    expect(await brandHistory(db(), 'h1')).toEqual([
      { version: 3, author: 'ann@example.com', savedAt: at(3).toISOString(), published: false, draft: true },
      {
        version: 2,
        author: 'ann@example.com',
        savedAt: at(1).toISOString(),
        published: true,
        draft: false,
        publishedBy: 'bob@example.com',
        publishedAt: at(2).toISOString(),
      },
      { version: 1, author: 'ann@example.com', savedAt: at(0).toISOString(), published: false, draft: true },
    ]);
  });

  it('publishes at a set time: nothing before it, the draft when it has come, and once only', async () => {
    const now = new Date(Date.UTC(2026, 10, 2, 9, 0));
    const later = new Date(now.getTime() + 3600_000);
    await saveBrandDraft(db(), { id: 't1', document: doc('t1', 'Scheduled'), expectedVersion: 0, author: 'ed@example.com', file: null, now });
    const set = await publishBrand(db(), { id: 't1', version: 1, author: 'ed@example.com', at: later, now });
    expect(set).toEqual({ publishedVersion: 0, scheduledAt: later.toISOString() });
    expect(await brandSchedule(db(), 't1')).toMatchObject({ version: 1, at: later.toISOString(), state: 'pending' });
    expect(await publishDueBrands(db(), new Date(later.getTime() - 1000))).not.toContain('t1');
    expect(await publishedBrand(db(), 't1')).toBeUndefined();
    expect(await publishDueBrands(db(), later)).toContain('t1');
    expect(await publishedBrand(db(), 't1')).toMatchObject({ version: 1, author: 'ed@example.com', document: { name: 'Scheduled' } });
    expect(await brandSchedule(db(), 't1')).toBeUndefined();
    // a second instance looking at the same moment publishes nothing more
    expect(await publishDueBrands(db(), later)).not.toContain('t1');
  });

  it('does not publish a scheduled draft the validator refuses, and says why; a schedule can be called off', async () => {
    const now = new Date(Date.UTC(2026, 10, 3, 9, 0));
    await saveBrandDraft(db(), { id: 't2', document: doc('t2', 'Broken'), expectedVersion: 0, author: 'ed@example.com', file: null, now });
    await publishBrand(db(), { id: 't2', version: 1, author: 'ed@example.com', at: new Date(now.getTime() + 60_000), now });
    await publishDueBrands(db(), new Date(now.getTime() + 60_000), () => '/hosts: must have at least 1 item');
    expect(await publishedBrand(db(), 't2')).toBeUndefined();
    expect(await brandSchedule(db(), 't2')).toBeUndefined();
    await publishBrand(db(), { id: 't2', version: 1, author: 'ed@example.com', at: new Date(now.getTime() + 120_000), now });
    expect(await cancelBrandSchedule(db(), 't2', 'ed@example.com', now)).toBe(true);
    await publishDueBrands(db(), new Date(now.getTime() + 120_000));
    expect(await publishedBrand(db(), 't2')).toBeUndefined();
  });

  it('audits every save, publish, schedule and restore with the document before and after', async () => {
    const now = new Date(Date.UTC(2026, 10, 4, 9, 0));
    await saveBrandDraft(db(), { id: 'a1', document: doc('a1', 'Saved'), expectedVersion: 0, author: 'ed@example.com', file: FILE('a1'), now });
    await publishBrand(db(), { id: 'a1', version: 1, author: 'ed@example.com', now });
    await saveBrandDraft(db(), { id: 'a1', document: doc('a1', 'Later'), expectedVersion: 1, author: 'ed@example.com', file: null, now });
    await publishBrand(db(), { id: 'a1', version: 2, author: 'ed@example.com', at: new Date(now.getTime() + 60_000), now });
    await restoreBrand(db(), { id: 'a1', version: 1, author: 'boss@example.com', now });
    const rows = await db().selectFrom('console_audit').selectAll().where('target', 'like', '%:a1').orderBy('at').orderBy('id').execute();
    const actions = rows.map((r) => `${r.action} ${r.target} ${r.actor}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'brand_draft_saved brand-draft:a1 ed@example.com',
        'brand_published brand:a1 ed@example.com',
        'brand_scheduled brand-schedule:a1 ed@example.com',
        'brand_restored brand-draft:a1 boss@example.com',
        'brand_published brand:a1 boss@example.com',
      ]),
    );
    const saves = rows.filter((r) => r.action === 'brand_draft_saved').map((r) => JSON.parse(r.detail) as { version: number });
    expect(saves.find((d) => d.version === 1)).toMatchObject({ version: 1, before: { name: 'From the file' }, after: { name: 'Saved' } });
  });

  it('notices a deploy that changed the file under a published revision', async () => {
    await saveBrandDraft(db(), { id: 'f1', document: doc('f1', 'Edited'), expectedVersion: 0, author: 'ed@example.com', file: FILE('f1', 'Shipped') });
    const { revision } = await publishBrand(db(), { id: 'f1', version: 1, author: 'ed@example.com' });
    expect(brandFileChanged(revision, FILE('f1', 'Shipped'))).toBe(false);
    expect(brandFileChanged(revision, FILE('f1', 'Shipped again, changed'))).toBe(true);
    // a brand made in the studio has no file to differ from
    expect(brandFileChanged(revision, undefined)).toBe(false);
  });
});
