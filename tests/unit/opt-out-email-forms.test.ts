/**
 * The "Stop calls and emails" page matches the address of a loan request however it was written
 * (the real POST /api/opt-out and POST /api/leads over a fresh SQLite file, the sale run as the
 * route starts it): an address pasted with an invisible character in it (a zero-width space, a
 * soft hyphen, a direction mark: what a copy from a web page or a document can carry), or with its
 * accents composed another way (NFD), is the same inbox. The opt-out is answered "recorded"; the
 * borrower's next request must then be offered to nobody, and the address a buyer would get has no
 * invisible character in it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { leadRequest } from '../support/leadRequest';
import { openStore, type Store } from '../../engine/store/db';
import { saleOf } from '../../engine/store/sales';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

let server: TraceServer;
let db: Store;
beforeAll(async () => {
  server = await startTraceServer(
    { LEADS_ENCRYPTION_KEY: 'd'.repeat(64), LEADS_WORKER: 'off', LEAD_DESTINATIONS: '', RATE_LIMIT_LEADS: '50', RATE_LIMIT_OPT_OUT: '50' },
    ['/api/leads', '/api/opt-out'],
  );
  db = openStore({ url: '', file: server.dbFile });
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

const lead = (email: string, phone: string) =>
  leadRequest({ email, phone, amount: 800, firstName: 'Zoë', lastName: 'Núñez', tracking: { source: 'landing-page' } });

async function saleStatus(leadId: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const sale = await saleOf(db, leadId);
    if (sale && sale.status !== 'pending') return sale.status;
    await new Promise((r) => setTimeout(r, 50));
  }
  return 'pending';
}

it.each([
  ['a zero-width space in the opt-out', 'zo\u200be@example.org', 'zoe@example.org', '2145550161'],
  ['a soft hyphen and a direction mark in the opt-out', '\u200eno\u00adra@example.org', 'nora@example.org', '2145550162'],
  ['an accent composed (NFC) on the request, decomposed (NFD) in the opt-out', 'jose\u0301@example.org', 'jos\u00e9@example.org', '2145550163'],
  ['an accent decomposed (NFD) on the request, composed (NFC) in the opt-out', 'ren\u00e9e@example.org', 'rene\u0301e@example.org', '2145550164'],
  ['a zero-width space on the request', 'ines@example.org', 'in\u200bes@example.org', '2145550165'],
])('%s: the next request is offered to nobody', async (_, optOutEmail, leadEmail, phone) => {
  const optOut = await post(server.port, JSON.stringify({ email: optOutEmail }), { path: '/api/opt-out', ip: '198.51.100.30' });
  expect(optOut).toMatchObject({ status: 200, json: { status: 'recorded' } });
  const sent = await post(server.port, JSON.stringify(lead(leadEmail, phone)), { path: '/api/leads', ip: '198.51.100.31' });
  expect(sent.status).toBe(201);
  const id = String(sent.json.id);
  expect(await saleStatus(id)).toBe('suppressed');
  const stored = await db.selectFrom('leads').select('email').where('id', '=', id).executeTakeFirstOrThrow();
  expect(stored.email).toBe(leadEmail.replace(/\u200b/g, '').normalize('NFC'));
});
