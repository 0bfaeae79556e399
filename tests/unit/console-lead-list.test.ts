/**
 * The console's leads list: its filter read from the query string (every value checked, a wrong
 * one a sentence, not a failing query; the start of an email or phone searched only by a role that
 * sees them), and the list itself on SQLite and a real PostgreSQL — each filter selects what it
 * names, pages by keyset walk every row once forwards and backwards even with a lead stored in
 * between, and the CSV export selects exactly the list's rows.
 */
import { describe, expect, it } from 'vitest';
import { leadListQuery, LEADS_PAGE_MAX, searchOf } from '../../engine/console/leadFilter';
import { leadsCsv } from '../../engine/console/adminQueries';
import { listLeadsPage } from '../../engine/console/leadQueries';
import type { Role } from '../../engine/console/roles';
import type { Store } from '../../engine/store/db';
import { writeTraffic } from '../../engine/store/traffic';
import { copyVisitDims } from '../../engine/store/leadVisitDims';
import { visitRow } from '../../engine/store/trafficRules';
import { leadRow } from '../support/leadRow';
import { bothStores, migratedStore } from '../support/bothStores';

const BRANDS = new Set(['ipaydayloans', 'weloans']);
const q = (query: Record<string, string | undefined>, role: Role = 'analyst') => leadListQuery(query, BRANDS, role);

describe('the leads filter read from the query string', () => {
  it('keeps every valid value, as the form shows it, and turns the day range into [from 00:00, the day after to)', () => {
    const r = q({
      from: '2026-11-01',
      to: '2026-11-02',
      brand: 'weloans',
      status: 'returned',
      buyer: 'acme-1',
      campaign: 'spring sale',
      source: 'google',
      state: 'tx',
    });
    expect(r.problems).toEqual([]);
    expect(r.filter).toEqual({
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-03T00:00:00.000Z',
      brand: 'weloans',
      status: 'returned',
      buyer: 'acme-1',
      campaign: 'spring sale',
      source: 'google',
      state: 'TX',
    });
    expect(r.form.state).toBe('TX');
  });

  it.each([
    [{ from: '2026-02-30' }, /real days written YYYY-MM-DD/],
    [{ from: 'yesterday' }, /real days/],
    [{ from: '0000-01-01' }, /Dates are days from 2000-01-01 to 9999-12-30\./],
    [{ to: '9999-12-31' }, /to 9999-12-30/],
    [{ from: '2026-11-05', to: '2026-11-01' }, /end date is before the start/],
    [{ from: '2024-01-01', to: '2026-01-01' }, /at most 366 days/],
    [{ status: 'lost' }, /status must be one of sold, unsold, duplicate, suppressed, returned, test/],
    [{ brand: 'nosuchbrand' }, /no brand with that id/],
    [{ buyer: "x' or 1=1" }, /buyer id is letters/],
    [{ state: 'Texas!' }, /two- or three-letter code/],
    [{ state: 'zz' }, /There is no state, province or territory ZZ; a state is its code, such as TX, ON or NSW\./],
    [{ sort: 'email' }, /Sort by created or amount/],
    [{ dir: 'up' }, /asc or desc/],
    [{ size: '-3' }, /page size is a whole number/],
    [{ after: 'not-a-cursor' }, /page link is not valid/],
  ])('%j is refused with a sentence saying why', (query, why) => {
    const r = q(query);
    expect(r.problems.join(' ')).toMatch(why);
  });

  it('caps the page size', () => {
    expect(q({ size: '100000' }).size).toBe(LEADS_PAGE_MAX);
    expect(q({}).size).toBe(50);
  });

  it('an admin searches by the start of an email or phone; a masked role only by the whole value, so it cannot probe digit by digit', () => {
    expect(searchOf('512555', 'admin')).toEqual({ search: { column: 'phone', value: '512555', prefix: true } });
    expect(searchOf('Ana.G', 'admin')).toEqual({ search: { column: 'email', value: 'ana.g', prefix: true } });
    expect(searchOf('512555', 'analyst').problem).toMatch(/sees phone numbers masked, so search needs the whole phone number/);
    expect(searchOf('ana.g', 'analyst').problem).toMatch(/sees emails masked/);
    expect(searchOf('ana@', 'analyst').problem).toMatch(/sees emails masked/);
    expect(searchOf('5125550123', 'analyst')).toEqual({ search: { column: 'phone', value: '5125550123', prefix: false } });
    expect(q({ q: '512' }, 'viewer').filter.search).toBeUndefined();
  });
});

const stores = bothStores('loansites-lead-list-');

describe.each(stores.kinds('lead-list.sqlite'))('%s: the leads list', (_kind, options) => {
  const db = migratedStore(options);
  const T0 = Date.parse('2026-11-20T12:00:00.000Z');
  const id = (i: number) => `ld_list${String(i).padStart(4, '0')}`;
  const ids: string[] = [];

  const seed = async (store: Store) => {
    const now = new Date(T0);
    const visits = ['spring', 'autumn'].map((campaign, i) =>
      visitRow(
        `vlist${String(i).padStart(26, '0')}`,
        { path: '/payday-loans', params: { utm_campaign: campaign, utm_source: i ? 'bing' : 'google' } },
        { brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'Mozilla/5.0', optedOut: false, now },
      ),
    );
    await writeTraffic(store, { visits, events: [] });
    for (let i = 0; i < 23; i++) {
      ids.push(id(i));
      // two leads share each time stamp, so the id decides their order
      const created = new Date(T0 + Math.floor(i / 2) * 60_000).toISOString();
      await store
        .insertInto('leads')
        .values({
          id: id(i),
          ...leadRow({
            created_at: created,
            brand: i % 5 === 0 ? 'weloans' : 'ipaydayloans',
            region: i % 3 === 0 ? 'CA' : 'TX',
            amount: 100 + (i % 4) * 100,
            email: `borrower${i}@example.org`,
            phone: `51255501${String(i).padStart(2, '0')}`,
            environment: i === 22 ? 'test' : 'production',
            visit_id: visits[i % 2]!.id,
          }),
        })
        .execute();
      const status = i % 4 === 0 ? 'sold' : i % 4 === 1 ? 'unsold' : i % 4 === 2 ? 'returned' : 'duplicate';
      await store
        .insertInto('lead_sales')
        .values({
          lead_id: id(i),
          status,
          duplicate: 0,
          buyer_id: i % 2 ? 'acme' : 'zenith',
          price_cents: 1000,
          runs: 1,
          created_at: created,
          decided_at: created,
        })
        .execute();
    }
    // written straight into the table, so the lead's copy of its visit's campaign and source is made as insertLead makes it
    await copyVisitDims(store, 'lead', ids);
  };

  it('selects what each filter names and nothing else', async () => {
    await seed(db());
    const all = async (query: Record<string, string>, role: Role = 'admin') =>
      (await listLeadsPage(db(), role, q({ ...query, size: '200' }, role))).rows.map((r) => r.id).sort();
    const want = (pred: (i: number) => boolean) => ids.filter((_, i) => pred(i)).sort();
    expect(await all({})).toEqual(ids);
    expect(await all({ status: 'sold' })).toEqual(want((i) => i % 4 === 0));
    expect(await all({ status: 'returned', campaign: 'spring' })).toEqual(want((i) => i % 4 === 2 && i % 2 === 0));
    expect(await all({ campaign: 'autumn', source: 'bing' })).toEqual(want((i) => i % 2 === 1));
    expect(await all({ campaign: 'autumn', source: 'google' })).toEqual([]);
    expect(await all({ buyer: 'zenith', state: 'ca' })).toEqual(want((i) => i % 2 === 0 && i % 3 === 0));
    expect(await all({ brand: 'weloans' })).toEqual(want((i) => i % 5 === 0));
    expect(await all({ status: 'test' })).toEqual([id(22)]);
    expect(await all({ from: '2026-11-20', to: '2026-11-20' })).toEqual(ids);
    expect(await all({ from: '2026-11-21' })).toEqual([]);
    expect(await all({ q: '512555010' })).toEqual(want((i) => i < 10));
    expect(await all({ q: 'borrower1' })).toEqual(want((i) => i === 1 || (i >= 10 && i < 20)));
    // a LIKE wildcard typed in the search is a character, not a wildcard
    expect(await all({ q: 'borrower_' })).toEqual([]);
    expect(await all({ q: 'borrower12@example.org' }, 'analyst')).toEqual([id(12)]);
  });

  it('pages by keyset: every row once, in order, forwards and back, a lead stored meanwhile not repeating one', async () => {
    for (const [sort, dir] of [
      ['created', 'desc'],
      ['created', 'asc'],
      ['amount', 'desc'],
      ['amount', 'asc'],
    ] as const) {
      const base = { sort, dir, size: '5' };
      const pages: string[][] = [];
      const cursors: string[] = [];
      let after = '';
      for (let n = 0; n < 10; n++) {
        const page = await listLeadsPage(db(), 'admin', q({ ...base, ...(after ? { after } : {}) }, 'admin'));
        pages.push(page.rows.map((r) => r.id));
        expect(!!page.prev).toBe(n > 0);
        if (!page.next) break;
        cursors.push(page.next);
        after = page.next;
      }
      const walked = pages.flat();
      expect(walked.length, `${sort} ${dir}`).toBe(ids.length);
      expect(new Set(walked).size).toBe(ids.length);
      expect(pages.map((p) => p.length)).toEqual([5, 5, 5, 5, 3]);
      const rows = (await listLeadsPage(db(), 'admin', q({ sort, dir, size: '200' }, 'admin'))).rows;
      expect(walked).toEqual(rows.map((r) => r.id));
      // back from the last page: the page before it, exactly
      const last = await listLeadsPage(db(), 'admin', q({ ...base, after: cursors.at(-1)! }, 'admin'));
      const back = await listLeadsPage(db(), 'admin', q({ ...base, before: last.prev! }, 'admin'));
      expect(back.rows.map((r) => r.id)).toEqual(pages.at(-2));
      expect(back.next).toBeDefined();
    }
    // a lead stored while the operator reads page 1 does not push a row of page 1 onto page 2
    const first = await listLeadsPage(db(), 'admin', q({ size: '5' }, 'admin'));
    await db()
      .insertInto('leads')
      .values({ id: 'ld_listnew', ...leadRow({ created_at: new Date(T0 + 3_600_000).toISOString() }) })
      .execute();
    const second = await listLeadsPage(db(), 'admin', q({ size: '5', after: first.next! }, 'admin'));
    expect(second.rows.map((r) => r.id)).not.toContain(first.rows.at(-1)!.id);
    expect(second.rows[0]!.id).toBe(ids.at(-(first.rows.length + 1)));
    await db().deleteFrom('leads').where('id', '=', 'ld_listnew').execute();
  });

  it('the CSV export of a filter holds exactly the rows the list shows for it', async () => {
    for (const query of [{ status: 'returned' }, { campaign: 'spring', state: 'TX' }, { q: '512555011' }, {}] as Record<string, string>[]) {
      const listed = (await listLeadsPage(db(), 'admin', q({ ...query, size: '200' }, 'admin'))).rows.map((r) => r.id).sort();
      const text = (await leadsCsv(db(), q(query, 'admin').filter))!.text;
      const exported = text
        .trim()
        .split(/\r?\n/)
        .slice(1, -1) // the last line is the total
        .map((line) => line.split(',')[0]!)
        .sort();
      expect(exported, JSON.stringify(query)).toEqual(listed);
    }
  });

  it('an analyst sees the rows masked', async () => {
    const rows = (await listLeadsPage(db(), 'analyst', q({ q: 'borrower3@example.org' }))).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: 'b•••@e•••.org', phone: '•••-•••-0103', masked: true });
  });
});
