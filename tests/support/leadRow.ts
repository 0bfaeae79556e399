/**
 * A stored lead row for tests that write leads straight into the store (no API in between): a
 * production lead from Austin, TX, its sealed fields sealed with the keys configured when it is
 * called. Each call gets its own idempotency key; `extra` replaces any column.
 */
import { sealText } from '../../engine/keys/sealing';
import type { LeadsTable } from '../../engine/store/leads';

let n = 0;

export const leadRow = (extra: Partial<LeadsTable> = {}): Omit<LeadsTable, 'id'> => ({
  brand: 'ipaydayloans',
  idempotency_key: `test-lead-${++n}-${process.pid}-abcdefghijklmnop`,
  created_at: new Date().toISOString(),
  loan_kind: 'general',
  amount: 1000,
  zip: '78701',
  state: 'tx',
  city: 'Austin',
  country: 'US',
  region: 'TX',
  currency: 'USD',
  purpose: '',
  vehicle: '',
  first_name: 'Ana',
  last_name: 'García',
  email: 'ana@example.org',
  phone: '5125550123',
  income_source: 'employment',
  pay_frequency: 'biweekly',
  sealed: sealText(JSON.stringify({ dateOfBirth: '1990-04-02', monthlyIncome: 3200 })),
  consent_version: 'tcpa-2026-11',
  consent_text: 'consent text',
  consent_hash: 'h',
  source: 'spring',
  source2: '',
  click_id: '',
  session_uuid: '',
  privacy_opt_out: 0,
  ip: '',
  user_agent: '',
  host: 'ipaydayloans.com',
  environment: 'production',
  ...extra,
});
