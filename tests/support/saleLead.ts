/**
 * A stored lead with its pending sale, for tests of the sale and the sale bench: an ordinary
 * Texas request ($800 unless told), with a unique email and phone so it is never a duplicate unless the test gives them.
 */
import { sealText, type LeadKeyring } from '../../engine/keys/sealing';
import { ensureSale } from '../../engine/store/sales';
import type { Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';

let seq = 0;

export async function storeSaleLead(db: Store, key: Buffer | LeadKeyring, over: { amount?: number; email?: string; phone?: string } = {}): Promise<string> {
  seq += 1;
  const unique = `${process.pid}-${seq}-${Math.random().toString(36).slice(2)}`;
  const { id } = await insertLead(
    db,
    {
      brand: 'ipaydayloans',
      idempotency_key: `sale-lead-${unique}`,
      created_at: new Date().toISOString(),
      loan_kind: 'general',
      amount: over.amount ?? 800,
      zip: '75001',
      state: 'tx',
      city: 'Addison',
      country: 'US',
      region: 'TX',
      currency: 'USD',
      host: 'ipaydayloans.com',
      environment: 'production',
      purpose: '',
      vehicle: '',
      first_name: 'Ana',
      last_name: 'Diaz',
      email: over.email ?? `ana.${unique}@example.com`,
      phone: over.phone ?? `214${String(1000000 + Math.floor(Math.random() * 8999999))}`,
      income_source: 'employment',
      pay_frequency: 'biweekly',
      sealed: sealText(JSON.stringify({ dateOfBirth: '1990-04-02', monthlyIncome: 2400 }), key),
      consent_version: 'tcpa-2026-11',
      consent_text: 't',
      consent_hash: 'h',
      source: 'google',
      source2: '',
      click_id: '',
      session_uuid: '',
      privacy_opt_out: 0,
      ip: '',
      user_agent: '',
    },
    [],
  );
  await ensureSale(db, id, new Date());
  return id;
}
