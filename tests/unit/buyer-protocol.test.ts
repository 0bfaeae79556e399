import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

const dir = join(process.cwd(), 'schemas/api');
const protocol = readdirSync(dir).filter((f) => f.startsWith('buyer-'));
const load = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { examples?: unknown[]; properties: Record<string, { description?: string }> };

describe('the buyer protocol schemas', () => {
  it('has the ping, the bid answer, the post, the post answer, the opt-out notice, the return and the certificate request', () => {
    expect(protocol.sort()).toEqual([
      'buyer-bid.schema.json',
      'buyer-certificate.schema.json',
      'buyer-opt-out.schema.json',
      'buyer-ping.schema.json',
      'buyer-post-answer.schema.json',
      'buyer-post.schema.json',
      'buyer-return-answer.schema.json',
      'buyer-return.schema.json',
    ]);
  });

  it.each(protocol)('%s: every example is valid and every property described', (file) => {
    const schema = load(file);
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    expect(schema.examples?.length).toBeGreaterThan(0);
    for (const example of schema.examples!) expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    for (const [name, prop] of Object.entries(schema.properties)) expect(prop.description, `${file} ${name}`).toBeTruthy();
  });

  it('the ping carries nothing that identifies the borrower', () => {
    const names = Object.keys(load('buyer-ping.schema.json').properties);
    for (const personal of ['firstName', 'lastName', 'email', 'phone', 'dateOfBirth', 'zip', 'city', 'monthlyIncome', 'id', 'ip'])
      expect(names).not.toContain(personal);
  });
});

describe('what a buyer is sent matches the published schemas', () => {
  const validator = (file: string) => new Ajv2020({ strict: false, allErrors: true }).compile(load(file));
  const LEADS = {
    'a US lead': { country: 'US', region: 'TX', state: 'tx', zip: '78701', currency: 'USD', city: 'Austin', phone: '5125550123' },
    'a Canadian lead': { brand: 'weloans', country: 'CA', region: 'ON', state: 'on', zip: 'M5V 2T6', currency: 'CAD', city: 'Toronto', phone: '4165550123' },
    'an Australian lead': {
      brand: 'fastloansau',
      country: 'AU',
      region: 'NSW',
      state: 'nsw',
      zip: '2000',
      currency: 'AUD',
      city: 'Sydney',
      phone: '0412345678',
    },
  } as const;

  it.each(Object.entries(LEADS))('the ping and the post of %s are valid', async (_, place) => {
    process.env.LEADS_ENCRYPTION_KEY = 'd'.repeat(64);
    const { leadRow } = await import('../support/leadRow');
    const { saleLeadOf } = await import('../../engine/sale/lead');
    const { pingPayload } = await import('../../engine/sale/ping');
    const { leadPayload } = await import('../../engine/sale/wire');
    const row = { ...leadRow({ ...place, certificate_id: 'ct_4fJ2k9Qm0aB1cD2eF3gH4i' }), id: 'ld_mx36co60001852b0961f5d91c' };
    const [ping, post] = [validator('buyer-ping.schema.json'), validator('buyer-post.schema.json')];
    expect(ping(pingPayload(saleLeadOf(row), 'pg_abcdefghijklmnop')), JSON.stringify(ping.errors)).toBe(true);
    expect(post(leadPayload(row)), JSON.stringify(post.errors)).toBe(true);
  });

  it("the post's example lead id is one a return can name", () => {
    const postExample = load('buyer-post.schema.json').examples![0] as { id: string };
    const ret = validator('buyer-return.schema.json');
    expect(ret({ leadId: postExample.id, reason: 'fraud' }), JSON.stringify(ret.errors)).toBe(true);
  });
});
