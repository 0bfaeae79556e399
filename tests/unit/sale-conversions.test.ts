/**
 * `npm run conversions -- --since 1d --format google-ads`, run as an operator would against a
 * temporary SQLite store: the Google Ads offline-conversions CSV of the leads sold in the window
 * with a gclid — spreadsheet-safe — leaving out returned, unsold, test and opted-out leads,
 * TikTok-only clicks and older sales; a wrong flag is a readable error.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureSale } from '../../engine/store/sales';
import type { SaleStatus } from '../../engine/store/saleTables';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { insertLead, type LeadsTable } from '../../engine/store/leads';
import { leadRow } from '../support/leadRow';

const dir = mkdtempSync(join(tmpdir(), 'loansites-conversions-'));
const file = join(dir, 'store.sqlite');
const saved = { ...process.env };
let db: Store;
const HOUR = 3_600_000;

beforeAll(async () => {
  process.env.LEADS_ENCRYPTION_KEY = '7'.repeat(64);
  db = openStore({ url: '', file });
  await migrateStore(db);
});
afterAll(async () => {
  process.env = saved;
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

async function sale(lead: Partial<LeadsTable>, status: SaleStatus, decidedAt: Date, priceCents = 1250): Promise<string> {
  const { id } = await insertLead(db, leadRow({ email: `c${Math.random()}@example.com`, ...lead }), []);
  await ensureSale(db, id, decidedAt);
  await db
    .updateTable('lead_sales')
    .set({ status, buyer_id: status === 'unsold' ? null : 'acme', price_cents: status === 'unsold' ? null : priceCents, decided_at: decidedAt.toISOString() })
    .where('lead_id', '=', id)
    .execute();
  return id;
}

const run = (...args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/conversions.ts', ...args], {
    env: { ...process.env, LOANSITES_DB_FILE: file, DATABASE_URL: '' },
    encoding: 'utf8',
  });

it('writes the Google Ads offline-conversions CSV of sold leads with a gclid, spreadsheet-safe', async () => {
  const now = Date.now();
  const t1 = new Date(now - 3 * HOUR);
  const t2 = new Date(now - 2 * HOUR);
  await sale({ click_id: 'ggCj0KCQiA-first' }, 'sold', t1, 1250);
  await sale({ click_id: 'gg=HYPERLINK("http://evil.example")', currency: 'CAD', brand: 'weloans' }, 'sold', t2, 4000);
  await sale({ click_id: 'ggReturned' }, 'returned', t2);
  await sale({ click_id: 'ggUnsold' }, 'unsold', t2);
  await sale({ click_id: 'ggTestLead', environment: 'test' }, 'sold', t2);
  await sale({ click_id: 'ggOptedOut', privacy_opt_out: 1 }, 'sold', t2);
  await sale({ click_id: 'ttTikTokOnly' }, 'sold', t2);
  await sale({ click_id: '' }, 'sold', t2);
  await sale({ click_id: 'ggTooOld' }, 'sold', new Date(now - 30 * HOUR));

  const iso = (d: Date) => `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)}+0000`;
  expect(run('--since', '1d', '--format', 'google-ads')).toBe(
    [
      'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency',
      `Cj0KCQiA-first,Loan request sold,${iso(t1)},12.50,USD`,
      `"'=HYPERLINK(""http://evil.example"")",Loan request sold,${iso(t2)},40.00,CAD`,
      '',
    ].join('\r\n'),
  );
  expect(run('--since', '1d', '--format', 'google-ads', '--brand', 'weloans', '--name', '+Sold')).toContain(`"'=HYPERLINK(""http://evil.example"")",'+Sold,`);
  expect(run('--since', '1h', '--format', 'google-ads')).toBe('Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency\r\n');
}, 60_000);

it('refuses an unknown format or window with a readable message', () => {
  const bad = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/conversions.ts', '--format', 'excel'], {
    env: { ...process.env, LOANSITES_DB_FILE: file, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  expect(bad.status).toBe(1);
  expect(bad.stderr).toContain('--format excel: the formats are google-ads');
  const since = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/conversions.ts', '--since', 'yesterday'], {
    env: { ...process.env, LOANSITES_DB_FILE: file, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  expect(since.stderr).toContain('--since yesterday: give a number and a unit');
}, 60_000);
