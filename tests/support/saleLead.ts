/**
 * A stored lead with its pending sale, for tests of the sale and the sale bench: an ordinary
 * Texas request ($800 unless told), with a unique email and phone so it is never a duplicate unless the test gives them.
 */
import { sealText, type LeadKeyring } from '../../engine/keys/sealing';
import type { SaleLead } from '../../engine/sale/eligibility';
import { ensureSale } from '../../engine/store/sales';
import type { Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { leadRow } from './leadRow';

let seq = 0;

/**
 * A phone no other lead of this process was given: the sale's duplicate rule matches phones as
 * well as emails, so a phone drawn at random (a thousand leads in a test or the bench) now and then
 * made a lead a duplicate, refused by every buyer not taking duplicates. Counted instead: 214 and
 * an exchange from 200 on (a valid NANP number), distinct for the first 8 million leads.
 */
let phones = 0;
export const nextSalePhone = (): string => `214${String(2_000_000 + (phones++ % 8_000_000))}`;

export async function storeSaleLead(db: Store, key: Buffer | LeadKeyring, over: { amount?: number; email?: string; phone?: string } = {}): Promise<string> {
  seq += 1;
  const unique = `${process.pid}-${seq}-${Math.random().toString(36).slice(2)}`;
  const { id } = await insertLead(
    db,
    leadRow({
      idempotency_key: `sale-lead-${unique}`,
      amount: over.amount ?? 800,
      zip: '75001',
      city: 'Addison',
      last_name: 'Diaz',
      email: over.email ?? `ana.${unique}@example.com`,
      phone: over.phone ?? nextSalePhone(),
      sealed: sealText(JSON.stringify({ dateOfBirth: '1990-04-02', monthlyIncome: 2400 }), key),
      consent_text: 't',
      source: 'google',
    }),
    [],
  );
  await ensureSale(db, id, new Date());
  return id;
}

/** The same ordinary Texas request as the sale's rules see it (engine/sale/eligibility.ts); `over` replaces any fact. */
export const saleLeadFacts = (over: Partial<SaleLead> = {}): SaleLead => ({
  id: 'l1',
  brand: 'ipaydayloans',
  loanKind: 'general',
  country: 'US',
  state: 'TX',
  zip: '75001',
  amount: 800,
  monthlyIncome: 2400,
  incomeSource: 'employment',
  payFrequency: 'biweekly',
  age: 30,
  source: 'google',
  test: false,
  ...over,
});
