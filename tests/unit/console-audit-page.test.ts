/**
 * The console's audit page (engine/console/adminQueries.ts auditPage) on both stores: an entry
 * whose detail holds whole documents (a brand's publish keeps the document before and after) is
 * shown by its start with how much more the log keeps, so a page of the last 200 entries stays a
 * page; a short detail is shown whole.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUDIT_DETAIL_SHOWN, auditPage } from '../../engine/console/adminQueries';
import { audit } from '../../engine/store/console';
import { bothStores, migratedStore } from '../support/bothStores';

const stores = bothStores('console-audit-page-');
const brand = JSON.parse(readFileSync('brands/ipaydayloans.json', 'utf8')) as object;

describe.each(stores.kinds('audit.sqlite'))('the audit page on %s', (_kind, options) => {
  const store = migratedStore(options);

  it('shows the start of a detail that holds whole documents, with how much more the log keeps, and a short detail whole', async () => {
    const db = store();
    const now = new Date('2026-11-30T10:00:00.000Z');
    for (let i = 0; i < 200; i++)
      await audit(db, {
        actor: 'ed@example.com',
        action: 'brand_published',
        target: 'brand:ipaydayloans',
        detail: { version: i + 1, before: brand, after: brand },
        now,
      });
    await audit(db, {
      actor: 'ops@example.com',
      action: 'experiment_paused',
      target: 'brand:ipaydayloans',
      detail: { experiment: 'payday-hero-headline', version: 201 },
      now: new Date(now.getTime() + 1000),
    });

    const entries = await auditPage(db);
    expect(entries).toHaveLength(200);
    expect(entries[0]).toMatchObject({ action: 'experiment_paused', detail: '{"experiment":"payday-hero-headline","version":201}' });
    const whole = JSON.stringify({ version: 200, before: brand, after: brand });
    const published = entries.find((e) => e.action === 'brand_published' && e.detail.startsWith('{"version":200,'))!;
    expect(published.detail).toBe(
      `${whole.slice(0, AUDIT_DETAIL_SHOWN)}… (${(whole.length - AUDIT_DETAIL_SHOWN).toLocaleString('en-US')} more characters, kept in the log)`,
    );
    // the page's details together: a page, not the documents of 200 publishes
    expect(entries.reduce((n, e) => n + e.detail.length, 0)).toBeLessThan(200 * (AUDIT_DETAIL_SHOWN + 100));
  });

  it('lists entries written at the same time newest first, in the order they were written', async () => {
    const db = store();
    const now = new Date('2026-12-01T09:00:00.000Z');
    for (let i = 0; i < 20; i++) await audit(db, { actor: 'ops@example.com', action: 'experiment_paused', target: `brand:b${i}`, detail: { step: i }, now });
    const mine = (await auditPage(db)).filter((e) => e.at === now.toISOString());
    expect(mine.map((e) => e.target)).toEqual(Array.from({ length: 20 }, (_, i) => `brand:b${19 - i}`));
    expect(mine.every((e) => /^au[0-9a-f]{24}$/.test(e.id))).toBe(true);
  });
});
