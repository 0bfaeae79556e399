/**
 * Conversion postbacks: a sold lead's brand postbacks are filled (every value URL-encoded: click
 * ids and sources come from a visitor) and sent through the outbox to a local stand-in for the ad
 * platform — once, retried while it fails — on SQLite and PostgreSQL; never for an unsold or a
 * test lead, nor for a visitor who opted out of sale and sharing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Postback } from '../../schemas/brand.types';
import type { Buyer } from '../../schemas/buyer.types';
import { backoffMs, deliverDue } from '../../engine/outbox/deliver';
import { buildBuyerCatalog } from '../../engine/sale/buyers';
import { fillPostback, postbackValues } from '../../engine/outbox/postbacks';
import { postbacksFor } from '../../engine/sale/postbacks';
import { runSale } from '../../engine/sale/runner';
import { ensureSale } from '../../engine/store/sales';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { insertLead, type LeadsTable } from '../../engine/store/leads';
import { leadRow } from '../support/leadRow';
import { startPostgres, type RunningPostgres } from '../support/postgres';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';

const SECRET = 'postback-buyer-secret-001';
const dir = mkdtempSync(join(tmpdir(), 'loansites-postbacks-'));
const saved = { ...process.env };
let pg: RunningPostgres;
let lender: StandInBuyer;
let platform: Server;
let origin = '';
const hits: string[] = [];
let failNext = 0;

beforeAll(async () => {
  process.env.LEADS_ENCRYPTION_KEY = '9'.repeat(64);
  platform = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (failNext > 0) {
      failNext -= 1;
      return res.writeHead(503).end('busy');
    }
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((r) => platform.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
  [pg, lender] = await Promise.all([startPostgres(), startStandInBuyer('converter', SECRET, { ping: { bid: 12.5 } })]);
}, 120_000);
afterAll(async () => {
  process.env = saved;
  platform?.closeAllConnections();
  await new Promise<void>((r) => (platform ? platform.close(() => r()) : r()));
  await lender?.close();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const lead = (over: Partial<LeadsTable> = {}) => ({ ...leadRow(over), id: 'ld_postbacktest1' }) as LeadsTable;

describe('filling a postback', () => {
  it('URL-encodes every value that came from a request', () => {
    const values = postbackValues(lead({ click_id: 'ggAB&c=1 #x', source: 'google&evil=1', source2: '/apply?x=<script>' }), { price_cents: 1250 });
    expect(fillPostback('https://ads.example/c?gclid={gclid}&v={price}&cur={currency}&s={source}&p={source2}&id={leadId}&b={brand}&t={ttclid}', values)).toBe(
      'https://ads.example/c?gclid=AB%26c%3D1%20%23x&v=12.50&cur=USD&s=google%26evil%3D1&p=%2Fapply%3Fx%3D%3Cscript%3E&id=ld_postbacktest1&b=ipaydayloans&t=',
    );
  });

  const google: Postback = { name: 'google', url: 'https://g.example/?c={gclid}', requires: 'gclid' };
  const tiktok: Postback = { name: 'tiktok', url: 'https://t.example/?c={ttclid}', requires: 'ttclid', sources: ['tiktok'] };
  it.each([
    ['a Google click', { click_id: 'ggX', source: 'google' }, ['google']],
    ['a TikTok click from the TikTok source', { click_id: 'ttY', source: 'tiktok' }, ['tiktok']],
    ['a TikTok click from another source', { click_id: 'ttY', source: 'email' }, []],
    ['no click id', { click_id: '', source: 'google' }, []],
    ['a visitor who opted out of sale and sharing', { click_id: 'ggX', privacy_opt_out: 1 }, []],
    ['a test lead', { click_id: 'ggX', environment: 'test' }, []],
  ])('which postbacks a sold lead gets: %s', (_, over, names) => {
    expect(postbacksFor([google, tiktok], lead(over as Partial<LeadsTable>)).map((p) => p.name)).toEqual(names);
  });
});

describe.each(['SQLite', 'PostgreSQL'])('postbacks on %s', (kind) => {
  let db: Store;
  let buyers: Buyer[];
  beforeAll(async () => {
    db = kind === 'SQLite' ? openStore({ url: '', file: join(dir, 'postbacks.sqlite') }) : openStore({ url: await pg.createDatabase('sale_postbacks') });
    await migrateStore(db);
    buyers = [
      ...buildBuyerCatalog([
        { file: 'b.json', text: JSON.stringify(lender.document({ filters: { amount: { max: 3000 } }, acceptsTestLeads: true })) },
      ]).buyers.values(),
    ].map((b) => b.buyer);
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
  });

  const postbacks = (): Postback[] => [
    { name: 'google', url: `${origin}/google?gclid={gclid}&value={price}&currency={currency}&src={source}&order={leadId}`, requires: 'gclid' },
    { name: 'tiktok', url: `${origin}/tiktok?c={ttclid}`, requires: 'ttclid' },
  ];
  const sell = async (over: Partial<LeadsTable>) => {
    const { id } = await insertLead(db, leadRow({ email: `p${Math.random()}@example.com`, ...over }), []);
    await ensureSale(db, id, new Date());
    const result = await runSale(db, id, {
      buyers,
      secretOf: () => SECRET,
      contactKey: Buffer.alloc(32, 4),
      worker: 'w',
      duplicateWindowMs: 0,
      postbacksOf: postbacks,
    });
    return { id, result };
  };
  const round = (at: Date) =>
    deliverDue(db, kind === 'SQLite' ? 'sqlite' : 'postgres', {
      worker: 'outbox',
      now: () => at,
      postbackOf: (_, name) => postbacks().find((p) => p.name === name),
    });

  it("sends a sold lead's postback once, its values encoded, retrying while the platform fails; nothing for unsold or test leads", async () => {
    hits.length = 0;
    const sold = await sell({ click_id: `ggCj0&KQ=${kind} 1`, source: 'google&x=1' });
    expect(sold.result).toMatchObject({ status: 'sold', priceCents: 1250 });
    const unsold = await sell({ click_id: 'ggZZZ', amount: 5000 });
    expect(unsold.result).toMatchObject({ status: 'unsold' });
    const test = await sell({ click_id: 'ggTTT', environment: 'test' });
    expect(test.result).toMatchObject({ status: 'sold' });
    const rows = await db.selectFrom('lead_deliveries').select(['lead_id', 'destination']).where('destination', 'like', 'postback:%').execute();
    expect(rows).toEqual([{ lead_id: sold.id, destination: 'postback:google' }]);

    failNext = 1;
    const t0 = new Date();
    expect(await round(t0)).toMatchObject({ claimed: 1, failed: 1 });
    const t1 = new Date(t0.getTime() + backoffMs(1) + 1000);
    expect(await round(t1)).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await round(new Date(t1.getTime() + 3_600_000))).toMatchObject({ claimed: 0 });

    expect(hits).toHaveLength(2);
    const url = new URL(hits[1]!, origin);
    expect(url.pathname).toBe('/google');
    expect(Object.fromEntries(url.searchParams)).toEqual({ gclid: `Cj0&KQ=${kind} 1`, value: '12.50', currency: 'USD', src: 'google&x=1', order: sold.id });
  }, 60_000);
});
