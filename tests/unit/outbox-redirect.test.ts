/**
 * A lead destination that answers the lead's POST with a redirect, on SQLite: the redirect is not
 * followed — a 302 to a page would be fetched with GET and its 200 would record a lead nobody
 * received as delivered; a 307 would re-post the signed lead elsewhere — and the lead stays
 * queued, with why, and is delivered once the destination takes it.
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
import { CLICKED, leadRow } from '../support/leadRow';

const dir = mkdtempSync(join(tmpdir(), 'loansites-outbox-redirect-'));
const saved = { ...process.env };
let db: Store;
let server: Server;
const seen: string[] = [];
let redirect = { status: 302, to: '/thanks' } as { status: number; to: string } | undefined;

beforeAll(async () => {
  process.env.LEADS_ENCRYPTION_KEY = 'e'.repeat(64);
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      if (req.url === '/in' && redirect) res.writeHead(redirect.status, { Location: redirect.to }).end();
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`;
  process.env.LEAD_DESTINATIONS = JSON.stringify({ ipaydayloans: [{ name: 'buyer-a', url, secret: 'buyer-shared-secret-789', timeoutMs: 800 }] });
  db = openStore({ url: '', file: join(dir, 'outbox.sqlite') });
  await migrateStore(db);
});
afterAll(async () => {
  process.env = saved;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('a lead destination that redirects', () => {
  it.each([
    [302, '/thanks'],
    [307, '/elsewhere'],
  ])('%i: not followed, not delivered, retried with the reason, delivered once the destination takes the lead', async (status, to) => {
    redirect = { status, to };
    seen.length = 0;
    const { id } = await insertLead(db, leadRow({ ...CLICKED }), ['buyer-a']);
    const t0 = Date.parse('2026-11-23T10:00:00.000Z');
    expect(await deliverDue(db, 'sqlite', { worker: 'w', now: () => new Date(t0) })).toMatchObject({ claimed: 1, delivered: 0, failed: 1 });
    expect(seen).toEqual(['POST /in']);
    const row = await db.selectFrom('lead_deliveries').selectAll().where('lead_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'pending',
      last_error: expect.stringMatching(new RegExp(`^HTTP ${status} \\(a redirect, not followed: .*\\); set the destination's URL to where it points$`)),
    });
    redirect = undefined;
    expect(await deliverDue(db, 'sqlite', { worker: 'w', now: () => new Date(t0 + 60_000) })).toMatchObject({ claimed: 1, delivered: 1 });
    expect(seen).toEqual(['POST /in', 'POST /in']);
  });
});
