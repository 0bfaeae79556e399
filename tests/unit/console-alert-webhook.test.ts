/**
 * The alert webhook against receivers that misbehave, on SQLite: a receiver that redirects is not
 * followed (a message only the redirect's target saw by GET is not delivered; a signed alert is
 * not re-posted wherever it points) and the message waits, with why, until the URL is corrected;
 * a slow receiver, while one instance works through a queue of messages to it, is not sent one of
 * them twice by another instance; and an alert whose message could not be stored is not marked
 * open (it would then never be sent), so the next check opens and sends it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';
import { addAlertRule, deliverAlerts, evaluateAlerts } from '../../engine/console/alerts';
import { sql } from 'kysely';
import { migrateStore, openStore, type Store } from '../../engine/store/db';

const dir = mkdtempSync(join(tmpdir(), 'loansites-alert-webhook-'));
let db: Store;
let server: Server;
let base = '';
const seen: string[] = [];

beforeAll(async () => {
  db = openStore({ url: '', file: join(dir, 'alerts.sqlite') });
  await migrateStore(db);
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('ok'), 2_500);
      else if (req.url === '/moved') res.writeHead(302, { Location: '/landing' }).end();
      else if (req.url === '/temporary') res.writeHead(307, { Location: '/elsewhere' }).end();
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('an alert webhook that redirects', () => {
  it.each([
    ['302 to a page', '/moved', 302],
    ['307 to another place', '/temporary', 307],
  ])('%s: not followed, not delivered, tried again with the reason, delivered once the URL is right', async (_what, path, status) => {
    await db.deleteFrom('alert_deliveries').execute();
    await db.deleteFrom('alert_episodes').execute();
    await db.deleteFrom('alert_rules').execute();
    await addAlertRule(db, { kind: 'no-sale', subject: '', threshold: 0, windowHours: 0, windowMinutes: 10 }, 'admin@example.com');
    const NOW = new Date('2026-11-13T03:00:00.000Z');
    expect(await evaluateAlerts(db, [{ id: 'always' } as unknown as Buyer], NOW)).toEqual({ opened: 1, resolved: 0 });
    seen.length = 0;
    expect(await deliverAlerts(db, { url: `${base}${path}`, secret: 'x' }, NOW)).toBe(0);
    expect(seen).toEqual([`POST ${path}`]);
    const row = await db.selectFrom('alert_deliveries').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.last_error).toBe(`HTTP ${status}: the webhook redirects (not followed); set ALERT_WEBHOOK_URL to where it points`);
    expect(await deliverAlerts(db, { url: `${base}/hook`, secret: 'x' }, new Date(NOW.getTime() + 60_000))).toBe(1);
    expect(seen).toEqual([`POST ${path}`, 'POST /hook']);
  });
});

describe('a slow alert webhook', () => {
  it('is sent each queued message once while two instances deliver: a message claimed late in a round is leased from when it was claimed', async () => {
    await db.deleteFrom('alert_deliveries').execute();
    await db.deleteFrom('alert_episodes').execute();
    await db.deleteFrom('alert_rules').execute();
    // two alerts open at once: two messages queued
    const NOW = new Date('2026-11-14T03:00:00.000Z');
    for (const windowMinutes of [10, 20])
      await addAlertRule(db, { kind: 'no-sale', subject: '', threshold: 0, windowHours: 0, windowMinutes }, 'admin@example.com');
    expect(await evaluateAlerts(db, [{ id: 'always' } as unknown as Buyer], NOW)).toEqual({ opened: 2, resolved: 0 });
    seen.length = 0;
    const hook = { url: `${base}/slow`, secret: 'x', timeoutMs: 10_000 };
    // one instance's round: each message takes the receiver 2.5 s
    const first = deliverAlerts(db, hook, NOW);
    // the second message is claimed 2.5 s into that round; another instance's round starts 31 s
    // after the first's (by its clock) while that message is still being sent
    while (seen.length < 2) await new Promise((r) => setTimeout(r, 20));
    const second = deliverAlerts(db, hook, new Date(NOW.getTime() + 31_000));
    expect((await first) + (await second)).toBe(2);
    expect(seen).toEqual(['POST /slow', 'POST /slow']);
  }, 20_000);
});

describe('an alert whose message cannot be stored', () => {
  it('is not left open unsent: the next check opens it and queues its message', async () => {
    await db.deleteFrom('alert_deliveries').execute();
    await db.deleteFrom('alert_episodes').execute();
    await db.deleteFrom('alert_rules').execute();
    await addAlertRule(db, { kind: 'no-sale', subject: '', threshold: 0, windowHours: 0, windowMinutes: 10 }, 'admin@example.com');
    const NOW = new Date('2026-11-15T03:00:00.000Z');
    const buyers = [{ id: 'always' } as unknown as Buyer];
    // the store refuses the message (a full disk, a dropped connection…) once
    await sql`create trigger refuse_alert_message before insert on alert_deliveries begin select raise(abort, 'disk full'); end`.execute(db);
    await expect(evaluateAlerts(db, buyers, NOW)).rejects.toThrow(/disk full/);
    await sql`drop trigger refuse_alert_message`.execute(db);
    expect(await db.selectFrom('alert_episodes').selectAll().execute()).toEqual([]);
    expect(await evaluateAlerts(db, buyers, new Date(NOW.getTime() + 60_000))).toEqual({ opened: 1, resolved: 0 });
    expect(await db.selectFrom('alert_deliveries').select('status').execute()).toEqual([{ status: 'pending' }]);
  });
});
