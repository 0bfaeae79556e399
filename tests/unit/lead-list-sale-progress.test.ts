/**
 * The console's leads list and `npm run leads` show a pending sale as the lead's page does: being
 * sold while a process holds its lease (`pending: selling`), interrupted once that lease ran out
 * with no decision (`pending: interrupted`: the process died or stalled mid-sale), plain `pending`
 * while nobody has taken it up. The list is read at a given time; the command (a real child
 * process) at its own clock, against leases far on either side of it. Sales are claimed by the
 * store's own claimSale; both stores.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { leadListQuery } from '../../engine/console/leadFilter';
import { listLeadsPage } from '../../engine/console/leadQueries';
import type { Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { claimSale, ensureSale, finishSale } from '../../engine/store/sales';
import { bothStores, migratedStore } from '../support/bothStores';
import { leadRow } from '../support/leadRow';

const KEY = 'f'.repeat(64);
process.env.LEADS_ENCRYPTION_KEY = KEY;
const stores = bothStores('loansites-lead-progress-');
const LEASE_MS = 90_000;

/** Four leads stored at `at`: a sale whose lease ran out, one a process holds, one never taken up, one sold. */
async function seed(db: Store, at: Date, leaseEnds: { lapsed: Date; live: Date }, tag: string) {
  const lead = async (name: string) =>
    (await insertLead(db, leadRow({ created_at: at.toISOString(), first_name: name, idempotency_key: `progress-${tag}-${name}-abcdefghijklmnop` }), [])).id;
  const ids = { lapsed: await lead('Lapsed'), live: await lead('Live'), waiting: await lead('Waiting'), sold: await lead('Sold') };
  for (const id of Object.values(ids)) await ensureSale(db, id, at);
  expect(await claimSale(db, ids.lapsed, 'w1', new Date(leaseEnds.lapsed.getTime() - LEASE_MS), LEASE_MS)).toBeDefined();
  expect(await claimSale(db, ids.live, 'w1', new Date(leaseEnds.live.getTime() - LEASE_MS), LEASE_MS)).toBeDefined();
  expect(await claimSale(db, ids.sold, 'w1', at, LEASE_MS)).toBeDefined();
  expect(await finishSale(db, ids.sold, 'w1', { status: 'sold', duplicate: false, buyerId: 'acme', priceCents: 2500 }, at)).toBe(true);
  return ids;
}

describe.each(stores.kinds('progress.sqlite'))('%s', (kind, options) => {
  const db = migratedStore(options);

  it('the leads list shows a sale whose lease ran out as interrupted, one held as selling, read at the time given', async () => {
    const T0 = new Date('2026-11-20T12:00:00.000Z');
    const NOW = new Date(T0.getTime() + 10 * 60_000);
    const ids = await seed(db(), T0, { lapsed: new Date(NOW.getTime() - 1), live: new Date(NOW.getTime() + 1) }, 'list');
    const statusOf = async (at: Date) => {
      const page = await listLeadsPage(
        db(),
        'admin',
        leadListQuery({ size: '200', from: '2026-11-20', to: '2026-11-20' }, new Set(['ipaydayloans']), 'admin'),
        at,
      );
      return Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, page.rows.find((r) => r.id === id)?.status]));
    };
    expect(await statusOf(NOW)).toEqual({ lapsed: 'pending: interrupted', live: 'pending: selling', waiting: 'pending', sold: 'sold' });
    // read later, the live sale's lease has run out too
    expect(await statusOf(new Date(NOW.getTime() + 2))).toMatchObject({ live: 'pending: interrupted' });
  });

  it('npm run leads shows a sale whose lease ran out as interrupted and one held as selling', async () => {
    const now = Date.now();
    const ids = await seed(db(), new Date(now - 5 * 60_000), { lapsed: new Date(now - 30 * 60_000), live: new Date(now + 60 * 60_000) }, 'cli');
    const env = {
      ...process.env,
      LEADS_ENCRYPTION_KEY: KEY,
      ...(kind === 'SQLite' ? { LOANSITES_DB_FILE: options().file!, DATABASE_URL: '' } : { DATABASE_URL: options().url! }),
    };
    const run = (args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/leads.ts', '--since', '1h', ...args], { encoding: 'utf8', timeout: 60_000, env });

    const json = run(['--json']);
    expect(json.stderr).toBe('');
    const listed = (JSON.parse(json.stdout) as { leads: { id: string; sale: { status: string } }[] }).leads;
    const statusOf = (id: string) => listed.find((l) => l.id === id)?.sale.status;
    expect({ lapsed: statusOf(ids.lapsed), live: statusOf(ids.live), waiting: statusOf(ids.waiting), sold: statusOf(ids.sold) }).toEqual({
      lapsed: 'pending: interrupted',
      live: 'pending: selling',
      waiting: 'pending',
      sold: 'sold',
    });

    const table = run([]).stdout.split('\n');
    expect(table.find((line) => line.includes(ids.lapsed))).toContain(' pending: interrupted ');
    expect(table.find((line) => line.includes(ids.live))).toContain(' pending: selling ');
  }, 120_000);
});
