/**
 * Where the borrower goes after a sale: a buyer that accepts without a redirectUrl has not
 * bought the lead (the borrower would be told "matched" with nowhere to go), so the next buyer
 * gets it; and the place the borrower is sent — the buyer's redirect, or the demo lender's offer
 * page on this site — is stored with the sale and shown by `npm run leads -- --json` and on the
 * console's lead page (to a role that does not see personal data, only its host).
 */
import { execFileSync } from 'node:child_process';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import LeadPage from '../../pages/_console/leads/[id]';
import type { Buyer } from '../../schemas/buyer.types';
import { leadDetail } from '../../engine/console/leadQueries';
import type { Role } from '../../engine/console/roles';
import { demoBuyer } from '../../engine/sale/demoLender';
import { demoOfferKey, sealDemoOffer } from '../../engine/sale/demoOffer';
import { runSale } from '../../engine/sale/runner';
import statusSchema from '../../schemas/api/sale-status.schema.json' with { type: 'json' };
import type { SaleStatusAnswer } from '../../schemas/api.types';
import { validatorFor } from '../../engine/http/api';
import { saleStatusAnswer } from '../../engine/sale/status';
import { saleOf, timelineOf } from '../../engine/store/sales';
import { buyerDocuments, sqliteSale } from '../support/saleKit';

const KEY = 'c'.repeat(64);
const SECRET = 'stand-in-buyer-secret-03';
const { db, file, buyer, deps, storeLead } = sqliteSale('redirects', SECRET, KEY, 4);
const documents = buyerDocuments;
/** Time is not what these tests are about: room for a loaded machine. */
const patient = { timeouts: { pingMs: 3000, postMs: 10_000 } };
const leadsJson = () =>
  (
    JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/leads.ts', '--since', '1h', '--json'], {
        env: { ...process.env, LOANSITES_DB_FILE: file, DATABASE_URL: '' },
        encoding: 'utf8',
      }),
    ) as { leads: unknown }
  ).leads as { id: string; sale: { status: string; buyer: string | null; redirectUrl: string | null } }[];

it('an accept without a redirectUrl is refused with its reason, and the next buyer, who sends the borrower on, buys the lead', async () => {
  const mute = await buyer('mute', { ping: { bid: 30 }, post: { answer: { accepted: true, buyerLeadId: 'M-1' } } });
  const next = await buyer('next-redirect', { ping: { bid: 20 } });
  const buyers = documents(mute.document(patient), next.document(patient));
  const leadId = await storeLead();

  const result = await runSale(db(), leadId, deps(buyers));

  const sentTo = `https://${next.id}.lender.example/offer/${leadId}`;
  expect(result).toMatchObject({ status: 'sold', buyerId: next.id, redirectUrl: sentTo });
  expect((await timelineOf(db(), leadId)).find((e) => e.buyer_id === mute.id && e.step === 'post')).toMatchObject({
    outcome: 'refused',
    detail: 'accept not taken: accepted without a redirectUrl',
  });
  // the borrower's page: matched, with the way on
  const buyerOf = (id: string) => buyers.find((b) => b.id === id);
  expect(saleStatusAnswer(await saleOf(db(), leadId), buyerOf)).toEqual({ state: 'matched', lender: `Stand-in ${next.id}`, continueUrl: sentTo });
  expect(leadsJson().find((l) => l.id === leadId)?.sale).toMatchObject({ status: 'sold', buyer: next.id, redirectUrl: sentTo });
}, 60_000);

it('a sale to the demo lender stores the offer page the borrower is sent to, and npm run leads -- --json shows it', async () => {
  const offer = sealDemoOffer(
    { amount: 800, loanKind: 'general', currency: 'USD', priceCents: 1200, country: 'US', region: 'TX' },
    new Date(),
    demoOfferKey(Buffer.from(KEY, 'hex')),
    'ipaydayloans',
  );
  const stand = await buyer('demo-stand-in', { ping: { bid: 12 }, post: { answer: { accepted: true, buyerLeadId: offer } } });
  const demo = { ...demoBuyer('http://unused.example'), endpoints: { ping: `${stand.origin}/ping`, post: `${stand.origin}/post` } };
  const leadId = await storeLead();

  const result = await runSale(db(), leadId, deps([demo]));

  const sentTo = `/demo-lender/offer?o=${offer}`;
  expect(result).toMatchObject({ status: 'sold', buyerId: 'demo-lender', redirectUrl: sentTo });
  // the place stored is the place the borrower's page sends them
  expect(saleStatusAnswer(await saleOf(db(), leadId), () => demo)).toMatchObject({ state: 'matched', continueUrl: sentTo });
  expect(leadsJson().find((l) => l.id === leadId)?.sale).toMatchObject({ status: 'sold', buyer: 'demo-lender', redirectUrl: sentTo });
}, 60_000);

it("the console's lead page shows where the borrower was sent: in full to an admin, only its host to an analyst", async () => {
  const sentTo = 'https://mailer.lender.example/offer?email=ana.diaz%40example.com';
  const mailer = await buyer('mailer', { ping: { bid: 25 }, post: { answer: { accepted: true, redirectUrl: sentTo } } });
  const leadId = await storeLead();
  expect(await runSale(db(), leadId, deps(documents(mailer.document(patient))))).toMatchObject({ status: 'sold', redirectUrl: sentTo });

  const page = async (role: Role) => {
    const detail = (await leadDetail(db(), role, leadId, false)) ?? null;
    const viewer = { email: `${role}@example.com`, role, csrf: 'x', may: [] };
    return renderToStaticMarkup(createElement(LeadPage, { viewer, id: leadId, detail, canReveal: false, canTrace: false, trace: null }));
  };
  const admin = await page('admin');
  expect(admin).toContain(
    '<dt class="font-medium text-slate-700">Borrower sent to</dt><dd class="break-all">https://mailer.lender.example/offer?email=ana.diaz%40example.com</dd>',
  );
  const analyst = await page('analyst');
  expect(analyst).toContain('<dt class="font-medium text-slate-700">Borrower sent to</dt><dd class="break-all">https://mailer.lender.example/…</dd>');
  expect(analyst).not.toContain('ana.diaz'); // nor on the timeline's accepted post
}, 60_000);

/** The borrower's page gets what sale-status.schema.json promises. */
const statusOf = async (leadId: string, buyers: Buyer[]) => {
  const answer = saleStatusAnswer(await saleOf(db(), leadId), (id) => buyers.find((b) => b.id === id));
  const validate = validatorFor<SaleStatusAnswer>(statusSchema);
  expect(validate(answer), validate.errors?.map((e) => `${e.instancePath} ${e.message}`).join('; ')).toBe(true);
  return answer;
};

it('a redirect under 2,000 characters as sent but over them once percent-encoded is refused, and the next buyer buys the lead', async () => {
  const prefix = 'https://accents.lender.example/';
  const sent = prefix + 'é'.repeat(1900); // 1,931 characters; each é is %C3%A9 as a URL
  const accents = await buyer('accents', { ping: { bid: 30 }, post: { answer: { accepted: true, redirectUrl: sent } } });
  const next = await buyer('next-accents', { ping: { bid: 20 } });
  const buyers = documents(accents.document(patient), next.document(patient));
  const leadId = await storeLead();

  const result = await runSale(db(), leadId, deps(buyers));

  const sentTo = `https://${next.id}.lender.example/offer/${leadId}`;
  expect(result).toMatchObject({ status: 'sold', buyerId: next.id, redirectUrl: sentTo });
  expect(accents.posts).toHaveLength(1);
  expect((await timelineOf(db(), leadId)).find((e) => e.buyer_id === accents.id && e.step === 'post')).toMatchObject({
    outcome: 'refused',
    detail: `accept not taken: redirect refused: ${prefix.length + 1900 * 6} characters once percent-encoded, more than 2000`,
  });
  expect(await statusOf(leadId, buyers)).toEqual({ state: 'matched', lender: `Stand-in ${next.id}`, continueUrl: sentTo });
}, 60_000);

it("a sale stored with a redirect longer than the borrower's page may be sent says matched, without the way on", async () => {
  const stored = await buyer('stored-long', { ping: { bid: 30 } });
  const buyers = documents(stored.document(patient));
  const leadId = await storeLead();
  expect(await runSale(db(), leadId, deps(buyers))).toMatchObject({ status: 'sold', buyerId: stored.id });
  // as a sale recorded before the length was measured once percent-encoded
  const long = new URL(`https://${stored.id}.lender.example/${'é'.repeat(1900)}`).href;
  await db().updateTable('lead_sales').set({ redirect_url: long }).where('lead_id', '=', leadId).execute();

  expect(await statusOf(leadId, buyers)).toEqual({ state: 'matched', lender: `Stand-in ${stored.id}` });
}, 60_000);
