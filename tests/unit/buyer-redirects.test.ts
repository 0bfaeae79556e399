/**
 * A buyer that answers with a redirect: the signed lead is never sent on to the Location (a
 * 307/308 would re-post it there, a 302 would make it a GET whose 2xx elsewhere would be taken for
 * a delivery). To a deliver destination the redirect is an answer that did not take the lead:
 * retried, the redirect named on the delivery; to a post, one that does not say what the buyer
 * decided (unknown). Over a real webhook on loopback and SQLite.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../engine/outbox/deliver';
import { readPostAnswer } from '../../engine/sale/answers';
import { sendSigned } from '../../engine/sale/http';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { leadRow } from '../support/leadRow';

const SECRET = 'redirecting-buyer-secret-01';
const dir = mkdtempSync(join(tmpdir(), 'loansites-buyer-redirects-'));
const saved = { ...process.env };
/** what reached the Location: method and body length */
const elsewhere: { method: string; bytes: number }[] = [];
let status = 307;
let server: Server;
let db: Store;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/elsewhere') {
        elsewhere.push({ method: req.method ?? '', bytes: Buffer.concat(chunks).length });
        res.writeHead(200).end('{}');
      } else res.writeHead(status, { Location: `http://127.0.0.1:${(server.address() as AddressInfo).port}/elsewhere` }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.env.LEADS_ENCRYPTION_KEY = 'e'.repeat(64);
  process.env.LEAD_DESTINATIONS = JSON.stringify({
    ipaydayloans: [{ name: 'redirecting', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`, secret: SECRET, timeoutMs: 2000 }],
  });
  db = openStore({ url: '', file: join(dir, 'store.sqlite') });
  await migrateStore(db);
});
afterAll(async () => {
  process.env = saved;
  await db?.destroy();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('a deliver destination answering with a redirect', () => {
  it.each([307, 308, 302, 301])('HTTP %i: the lead goes nowhere else, is not counted delivered, and the redirect is named', async (code) => {
    status = code;
    elsewhere.length = 0;
    await db.deleteFrom('lead_deliveries').execute();
    const { id } = await insertLead(db, leadRow(), ['redirecting']);
    expect(await deliverDue(db, 'sqlite', { worker: 'w1', now: () => new Date(Date.now() + 1000) })).toMatchObject({ claimed: 1, delivered: 0, failed: 1 });
    expect(elsewhere).toEqual([]);
    const row = await db.selectFrom('lead_deliveries').selectAll().where('lead_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.last_error).toMatch(
      new RegExp(`^HTTP ${code} \\(a redirect, not followed: http://127\\.0\\.0\\.1:\\d+/elsewhere\\); set the destination's URL to where it points$`),
    );
  });
});

describe('a post answered with a redirect', () => {
  it.each([307, 302])('HTTP %i: not followed, and read as an answer that does not decide', async (code) => {
    status = code;
    elsewhere.length = 0;
    const sent = await sendSigned(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`,
      { id: 'ld_abcdefgh' },
      { secret: SECRET, timeoutMs: 2000, leadId: 'ld_abcdefgh' },
    );
    expect(elsewhere).toEqual([]);
    expect(sent.answer).toMatchObject({ status: code });
    expect(readPostAnswer(sent.answer, { id: 'b', mode: 'ping-post', redirectHosts: [] } as never, 1000)).toEqual({
      ok: false,
      unknown: true,
      reason: `HTTP ${code} (a redirect, not followed)`,
    });
  });
});
