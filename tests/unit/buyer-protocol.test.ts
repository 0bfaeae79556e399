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
