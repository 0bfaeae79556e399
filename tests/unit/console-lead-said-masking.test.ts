/**
 * What buyers and receivers said about a lead (a no-bid's reason, a refused post's, the sale's
 * reason, a delivery's last error) is shown on the lead's page; a buyer may quote the person back
 * ("duplicate of ana@example.org"), so a role that sees the lead's email, phone and last name
 * masked sees them masked there too, until it reveals the lead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadDetail } from '../../engine/console/leadQueries';
import { maskPersonalText } from '../../engine/console/masking';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { leadRow } from '../support/leadRow';

const dir = mkdtempSync(join(tmpdir(), 'loansites-said-masking-'));
let db: Store;
const LEAD = 'ld_saidmasking0000000001';
const at = new Date().toISOString();
const QUOTED = 'duplicate of Ana García, ana@example.org, (512) 555-0123';

beforeAll(async () => {
  db = openStore({ url: '', file: join(dir, 's.sqlite') });
  await migrateStore(db);
  await db
    .insertInto('leads')
    .values({ id: LEAD, ...leadRow() })
    .execute();
  await db
    .insertInto('lead_sales')
    .values({
      lead_id: LEAD,
      status: 'unsold',
      duplicate: 0,
      buyer_id: null,
      price_cents: null,
      redirect_url: null,
      buyer_lead_id: null,
      reason: `every buyer refused (demo-lender: ${QUOTED})`,
      buyer_day: null,
      buyer_month: null,
      claimed_by: null,
      claimed_until: null,
      runs: 1,
      created_at: at,
      decided_at: at,
    })
    .execute();
  await db
    .insertInto('sale_events')
    .values([
      {
        id: 'ev_said1',
        lead_id: LEAD,
        at,
        buyer_id: 'demo-lender',
        step: 'ping',
        outcome: 'no-bid',
        price_cents: null,
        latency_ms: 20,
        detail: `no bid: ${QUOTED}`,
      },
      {
        id: 'ev_said2',
        lead_id: LEAD,
        at,
        buyer_id: 'other',
        step: 'post',
        outcome: 'refused',
        price_cents: null,
        latency_ms: 20,
        detail: 'refused: phone 5125550123 on file',
      },
    ])
    .execute();
  await db
    .insertInto('lead_deliveries')
    .values({
      id: 'dl_said1',
      lead_id: LEAD,
      destination: 'crm',
      status: 'failed',
      attempts: 3,
      next_attempt_at: at,
      claimed_by: null,
      claimed_until: null,
      last_error: 'HTTP 400: {"error":"ANA@EXAMPLE.ORG exists"}',
      delivered_at: null,
      created_at: at,
    })
    .execute();
});

afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const texts = (d: Awaited<ReturnType<typeof leadDetail>>) =>
  [d?.sale?.reason, ...(d?.events ?? []).map((e) => e.detail), ...(d?.deliveries ?? []).map((x) => x.last_error)].join('\n');

describe('what buyers and receivers said about a lead, by role', () => {
  it('is masked for an analyst who has not revealed the lead: no email, phone or last name in any of it', async () => {
    const shown = texts(await leadDetail(db, 'analyst', LEAD, false));
    expect(shown).not.toMatch(/ana@example\.org|García|555-0123|5125550123/i);
    expect(shown).toContain('no bid: duplicate of Ana G., a•••@e•••.org, •••-•••-0123');
    expect(shown).toContain('refused: phone •••-•••-0123 on file');
    expect(shown).toContain('HTTP 400: {"error":"a•••@e•••.org exists"}');
  });

  it('is shown as said to an admin, and to the analyst once the lead is revealed', async () => {
    for (const d of [await leadDetail(db, 'admin', LEAD, false), await leadDetail(db, 'analyst', LEAD, true)]) {
      expect(texts(d)).toContain(`no bid: ${QUOTED}`);
      expect(texts(d)).toContain('ANA@EXAMPLE.ORG exists');
    }
  });

  it('masks only the lead’s own details, not other numbers or words', () => {
    const lead = { email: 'ana@example.org', phone: '5125550123', first_name: 'Ana', last_name: 'Lee', masked: false };
    expect(maskPersonalText('Lee; Leeds; price 5125550124; +1 512.555.0123', lead)).toBe('L.; Leeds; price 5125550124; +1 •••-•••-0123');
  });
});
