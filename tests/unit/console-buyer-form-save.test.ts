/**
 * Saving the console's buyer form (engine/console/buyerForm.ts) on a real SQLite store: the
 * built-in demo lender, the one buyer of a fresh install, is paused and resumed from its page, and
 * the sale sees each change at once, without a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { saveBuyerForm } from '../../engine/console/buyerForm';
import { DEMO_LENDER_ID } from '../../engine/sale/demoLender';
import { saleBuyers } from '../../engine/sale/settings';
import { closeStore, getStore } from '../../engine/store/db';
import { stopLiveRevisions } from '../../engine/store/liveRevisions';

const dir = mkdtempSync(join(tmpdir(), 'loansites-buyer-form-'));
// no buyer files, a server's own origin: the demo lender is the one buyer, as on a fresh checkout
Object.assign(process.env, {
  LOANSITES_DB_FILE: join(dir, 'store.sqlite'),
  DATABASE_URL: '',
  LOANSITES_BUYERS_DIR: join(dir, 'no-buyer-files'),
  LOANSITES_DEMO_LENDER_ORIGIN: 'http://127.0.0.1:9',
});

afterAll(async () => {
  await stopLiveRevisions();
  await closeStore();
  rmSync(dir, { recursive: true, force: true });
});

describe('the demo lender’s form', () => {
  const post = async (version: number, fields: Record<string, string>) =>
    saveBuyerForm(await getStore(), {
      id: DEMO_LENDER_ID,
      csrf: 'token',
      author: 'ops@example.com',
      form: { csrf: 'token', version: String(version), ...fields },
    });
  const demo = () => saleBuyers().buyers.find((b) => b.id === DEMO_LENDER_ID);

  it('pauses it and resumes it, and the sale offers leads to it only while it is active', async () => {
    expect(demo()?.enabled).not.toBe(false);
    expect(await post(0, { status: 'paused', capsPerDay: '40' })).toMatchObject({ saved: { version: 1 } });
    expect(demo()).toMatchObject({ enabled: false, caps: { perDay: 40 } });
    expect(await post(1, { status: 'active' })).toMatchObject({ saved: { version: 2 } });
    expect(demo()?.enabled).toBe(true);
  });

  it('still refuses what the operator typed wrong, by field', async () => {
    expect(await post(2, { status: 'active', capsPerDay: '-5' })).toMatchObject({ problems: [{ pointer: '/caps/perDay', message: 'must be at least 0' }] });
  });
});
