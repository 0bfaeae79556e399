/**
 * Screening asks an outside scrub service over HTTP (SCREENING_SCRUB_URL) — here a stand-in on
 * loopback — when the brand turns the scrub check on: a listed litigator's lead gets its code and
 * is refused when the check refuses; a clear one is offered; the service's token goes with each
 * request. When the service is slow past SCREENING_SCRUB_TIMEOUT_MS, answers an error or is down,
 * the lead is still screened at once, and the brand's fallback decides: fail-open scores it as
 * clear, fail-closed adds scrub-unavailable. The real store (SQLite) keeps what was found.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand } from '../../schemas/brand.types';
import { screenStoredLead } from '../../engine/leads/screening/run';
import { setScrubs } from '../../engine/leads/screening/scrubs';
import type { LeadBody } from '../../engine/leads/record';
import { getCatalog } from '../../engine/site/catalog';
import { screeningOf } from '../../engine/store/screening';
import { migratedStore } from '../support/bothStores';
import { storeSaleLead } from '../support/saleLead';
import { startScrubService, type ScrubService } from '../support/scrubService';

const KEY = 'a'.repeat(64);
process.env.LEADS_ENCRYPTION_KEY = KEY;
const dir = mkdtempSync(join(tmpdir(), 'loansites-scrub-service-'));
let service: ScrubService;
const saved = { ...process.env };
beforeAll(async () => {
  service = await startScrubService();
  process.env.SCREENING_SCRUB_URL = service.url;
  process.env.SCREENING_SCRUB_TOKEN = 'scrub-token-01';
  process.env.SCREENING_SCRUB_TIMEOUT_MS = '1000';
  // the scrubs are read from the environment on first use
  setScrubs(undefined);
});
afterAll(async () => {
  process.env = saved;
  setScrubs(undefined);
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const person = { stepMs: [8000, 21000, 30000], pointerEvents: 12, keyEvents: 96, pastedFields: 0, filledFields: 12, webdriver: false };
const bodyOf = (phone: string): LeadBody =>
  ({
    phone,
    email: `ana.${phone}@example.org`,
    zip: '78701',
    amount: 800,
    dateOfBirth: '1990-04-02',
    tracking: { source: 'spring', uuid: `device-${phone}` },
    signals: person,
  }) as unknown as LeadBody;

describe('an outside scrub over HTTP', () => {
  const db = migratedStore(() => ({ url: '', file: join(dir, 'scrub.sqlite') }));
  const base = () => getCatalog().brands.get('ipaydayloans')!.brand;
  const brandWith = (scrub: NonNullable<NonNullable<Brand['screening']>['checks']>['scrub']): Brand => ({ ...base(), screening: { checks: { scrub } } });
  let phone = 5125550100;
  const screenOne = async (brand: Brand) => {
    const id = await storeSaleLead(db(), Buffer.from(KEY, 'hex'));
    const p = String(++phone);
    const started = Date.now();
    const result = await screenStoredLead(db(), brand, bodyOf(p), {
      leadId: id,
      ip: `203.0.113.${phone % 250}`,
      region: 'TX',
      loanKind: 'general',
      now: new Date(),
    });
    return { id, phone: p, result, ms: Date.now() - started };
  };

  it('reports a listed litigator, refusing the lead when the check refuses, and clears another; with the service token', async () => {
    service.listed.set(String(phone + 1), ['scrub-litigator', 'not-a-scrub-code']);
    const listed = await screenOne(brandWith({ action: 'refuse' }));
    expect(listed.result.codes).toEqual(['scrub-litigator']);
    expect(listed.result.routing).toBe('refuse');
    expect((await screeningOf(db(), listed.id))?.codes).toBe('scrub-litigator');
    const clear = await screenOne(brandWith({ action: 'refuse' }));
    expect(clear.result.codes).not.toContain('scrub-litigator');
    expect(clear.result.routing).toBe('offer');
    expect(service.requests.at(-1)).toEqual({
      body: { phone: clear.phone, email: `ana.${clear.phone}@example.org`, country: 'US' },
      authorization: 'Bearer scrub-token-01',
    });
  });

  it('asks nothing when the brand leaves the scrub off', async () => {
    const before = service.requests.length;
    await screenOne(base());
    expect(service.requests.length).toBe(before);
  });

  it.each([
    ['slow past the timeout', () => (service.delayMs = 4000)],
    ['answering 503', () => (service.status = 503)],
  ])('falls back when the service is %s: open scores it as clear, closed adds scrub-unavailable, and it never waits past the timeout', async (_, breakIt) => {
    breakIt();
    try {
      const open = await screenOne(brandWith({ action: 'flag', whenUnavailable: 'open' }));
      expect(open.result.codes).toEqual([]);
      expect(open.ms).toBeLessThan(3000);
      const closed = await screenOne(brandWith({ action: 'flag', whenUnavailable: 'closed' }));
      expect(closed.result.codes).toEqual(['scrub-unavailable']);
      expect(closed.result.score).toBe(80);
    } finally {
      service.delayMs = 0;
      service.status = 200;
    }
  });

  it('falls back the same when the service is down', async () => {
    const url = service.url;
    await service.close();
    process.env.SCREENING_SCRUB_URL = url;
    const closed = await screenOne(brandWith({ action: 'refuse', whenUnavailable: 'closed' }));
    expect(closed.result.codes).toEqual(['scrub-unavailable']);
    expect(closed.result.routing).toBe('refuse');
    const open = await screenOne(brandWith({ action: 'refuse', whenUnavailable: 'open' }));
    expect(open.result.routing).toBe('offer');
  });
});
