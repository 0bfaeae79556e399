/**
 * What the sale's tests share: stand-in buyers started and closed together, their documents
 * checked like files in buyers/, the sale's dependencies, a sale killed mid-post or mid-ping (kill -9
 * of a child process running it, tests/support/saleChild.ts) while the buyer holds its post or
 * leaves its ping unanswered, and a server's start-up in a child process (its sale sweep).
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

/** A sale child's store: a SQLite file, or a PostgreSQL URL. */
export type ChildStore = { file: string; url: string };

/**
 * The sale of `leadId` run in a child process (tests/support/saleChild.ts) with these buyers;
 * `leaseMs`: the lease it takes (default the sale's 90 s). Its output is kept for a failure's message.
 */
export function saleChild(store: ChildStore, secret: string, leadId: string, buyers: Buyer[], opts: { leaseMs?: number } = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/saleChild.ts'], {
    env: {
      ...process.env,
      SALE_DB_FILE: store.file,
      SALE_DB_URL: store.url,
      SALE_LEAD_ID: leadId,
      SALE_BUYERS: JSON.stringify(buyers),
      SALE_SECRET: secret,
      ...(opts.leaseMs ? { SALE_LEASE_MS: String(opts.leaseMs) } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise((r) => child.on('exit', r));
  return {
    child,
    output: () => output,
    /** kill -9: the process dies where it is, its lease left to run out */
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Runs the sale of `leadId` in a child process and kills it (SIGKILL) once `holder` has the post, which it holds unanswered. */
export async function killMidPost(store: ChildStore, secret: string, leadId: string, buyers: Buyer[], holder: StandInBuyer): Promise<void> {
  holder.holdPosts = true;
  const sale = saleChild(store, secret, leadId, buyers);
  sale.child.on('exit', () => holder.posts.length || console.error(`sale child ended before posting:\n${sale.output()}`));
  // The child compiles the sale with tsx before it posts: on a loaded 2-core machine that alone can take 20 s.
  await expect.poll(() => holder.posts.length, { timeout: 45_000 }).toBe(1);
  await sale.kill();
}

/**
 * Runs the sale of `leadId` in a child process and kills it (SIGKILL) once `holder` has its ping,
 * which it must leave unanswered (its ping behaviour 'hang'): the ping's row stays `sending`.
 */
export async function killMidPing(
  store: ChildStore,
  secret: string,
  leadId: string,
  buyers: Buyer[],
  holder: StandInBuyer,
  opts: { leaseMs?: number } = {},
): Promise<void> {
  const sale = saleChild(store, secret, leadId, buyers, opts);
  sale.child.on('exit', () => holder.pings.length || console.error(`sale child ended before pinging:\n${sale.output()}`));
  await expect.poll(() => holder.pings.length, { timeout: 45_000 }).toBe(1);
  await sale.kill();
}

/**
 * A server's start-up (instrumentation.ts's register(), tests/support/serverStartChild.ts) in a
 * child process with `env` added to this one's: its store, buyers and sweep interval. What it logs
 * is kept; stop() kills it.
 */
export function serverStartChild(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/serverStartChild.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise((r) => child.on('exit', r));
  return {
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
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
