/**
 * A deliver destination's 2xx is the delivery; whatever body comes with it is not ours to keep:
 * a destination streaming a huge answer is not read past its first bytes (the worker's memory is
 * not the buyer's to fill). Over a real webhook on loopback and SQLite.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../engine/outbox/deliver';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { leadRow } from '../support/leadRow';

const TOTAL = 64 * 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'loansites-outbox-answer-body-'));
const saved = { ...process.env };
let sent = -1;
let server: Server;
let db: Store;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 32);
      let written = 0;
      const more = () => {
        while (written < TOTAL && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('close', () => (sent = written));
      more();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.env.LEADS_ENCRYPTION_KEY = 'f'.repeat(64);
  process.env.LEAD_DESTINATIONS = JSON.stringify({
    ipaydayloans: [
      { name: 'streaming', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`, secret: 'streaming-buyer-secret-01', timeoutMs: 20_000 },
    ],
  });
  db = openStore({ url: '', file: join(dir, 'store.sqlite') });
  await migrateStore(db);
});
afterAll(async () => {
  process.env = saved;
  await db?.destroy();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('a deliver destination answering 200 with a huge body', () => {
  it('is delivered, and its body is not read past its start', async () => {
    const { id } = await insertLead(db, leadRow(), ['streaming']);
    expect(await deliverDue(db, 'sqlite', { worker: 'w1', now: () => new Date(Date.now() + 1000) })).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await db.selectFrom('lead_deliveries').select('status').where('lead_id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'delivered' });
    await expect.poll(() => sent).toBeGreaterThanOrEqual(0);
    expect(sent).toBeLessThan(TOTAL / 4);
  }, 60_000);
});
