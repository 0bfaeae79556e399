/**
 * A valid POST /api/leads body (schemas/api/lead.schema.json): an ordinary Texas request from the
 * embedded form, with a unique idempotency key and email so it is never a retry or a duplicate;
 * `over` replaces any field.
 */
import { CURRENT_CONSENT_VERSION } from '../../engine/site/consent';

let n = 0;

export function leadRequest(over: Record<string, unknown> = {}): Record<string, unknown> & { idempotencyKey: string; email: string } {
  n += 1;
  const unique = `${process.pid}-${Date.now()}-${n}`;
  return {
    idempotencyKey: `lead-${unique}-abcdefghij`,
    amount: 1500,
    zip: '78701',
    firstName: 'Ana',
    lastName: 'García',
    email: `ana.${unique}@example.org`,
    phone: '5125550123',
    incomeSource: 'employment',
    monthlyIncome: 3200,
    payFrequency: 'biweekly',
    dateOfBirth: '1990-04-02',
    consent: { accepted: true, version: CURRENT_CONSENT_VERSION },
    tracking: { source: 'spring' },
    ...over,
  };
}
