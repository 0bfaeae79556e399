/**
 * What the sale's tests share: stand-in buyers started and closed together, their documents
 * checked like files in buyers/, the sale's dependencies, and a sale killed mid-post (kill -9 of
 * a child process running it, tests/support/saleChild.ts) while its post is held by the buyer.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';
import { buildBuyerCatalog } from '../../engine/sale/buyers';
import type { SaleDeps } from '../../engine/sale/runner';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { storeSaleLead } from './saleLead';
import { startStandInBuyer, type StandInBuyer } from './standInBuyer';

/** The documents, checked like files in buyers/ (no problems expected). */
export function buyerDocuments(...docs: Record<string, unknown>[]): Buyer[] {
  const c = buildBuyerCatalog(docs.map((d, i) => ({ file: `buyers/${i}.json`, text: JSON.stringify(d) })));
  expect(c.problems).toEqual([]);
  return [...c.buyers.values()].map((b) => b.buyer);
}

/** Stand-in buyers sharing one secret; closeAll in afterAll. */
export function standIns(secret: string) {
  const started: StandInBuyer[] = [];
  return {
    async start(id: string, opts: Parameters<typeof startStandInBuyer>[2] = {}): Promise<StandInBuyer> {
      const b = await startStandInBuyer(id, secret, opts);
      started.push(b);
      return b;
    },
    closeAll: () => Promise.all(started.map((b) => b.close())),
  };
}

export const saleDeps = (secret: string, contactKey: Buffer, buyers: Buyer[], over: Partial<SaleDeps> = {}): SaleDeps => ({
  buyers,
  secretOf: () => secret,
  contactKey,
  worker: 'w1',
  ...over,
});

/** Runs the sale of `leadId` in a child process and kills it (SIGKILL) once `holder` has the post, which it holds unanswered. */
export async function killMidPost(store: { file: string; url: string }, secret: string, leadId: string, buyers: Buyer[], holder: StandInBuyer): Promise<void> {
  holder.holdPosts = true;
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/saleChild.ts'], {
    env: {
      ...process.env,
      SALE_DB_FILE: store.file,
      SALE_DB_URL: store.url,
      SALE_LEAD_ID: leadId,
      SALE_BUYERS: JSON.stringify(buyers),
      SALE_SECRET: secret,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise((r) => child.on('exit', r));
  child.on('exit', () => holder.posts.length || console.error(`sale child ended before posting:\n${output}`));
  // The child compiles the sale with tsx before it posts: on a loaded 2-core machine that alone can take 20 s.
  await expect.poll(() => holder.posts.length, { timeout: 45_000 }).toBe(1);
  child.kill('SIGKILL');
  await exited;
}

/**
 * A test file's sale on a fresh SQLite file, with stand-in buyers sharing `secret`: the lead key
 * set and the store migrated before its tests, the buyers closed, the environment put back and the
 * file removed after. `contactByte` fills the contact key, so each file matches contacts its own way.
 */
export function sqliteSale(name: string, secret: string, leadKeyHex: string, contactByte: number) {
  const dir = mkdtempSync(join(tmpdir(), `loansites-${name}-`));
  const file = join(dir, 'sale.sqlite');
  const saved = { ...process.env };
  const stands = standIns(secret);
  let db: Store;
  beforeAll(async () => {
    process.env.LEADS_ENCRYPTION_KEY = leadKeyHex;
    db = openStore({ url: '', file });
    await migrateStore(db);
  }, 60_000);
  afterAll(async () => {
    process.env = saved;
    await stands.closeAll();
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    file,
    db: () => db,
    buyer: stands.start,
    deps: (buyers: Buyer[]) => saleDeps(secret, Buffer.alloc(32, contactByte), buyers),
    storeLead: () => storeSaleLead(db, Buffer.from(leadKeyHex, 'hex')),
  };
}
