import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { SCHEMA_FORMATS } from '../support/schemaFormats';
import { describe, expect, it } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';

const dir = join(process.cwd(), 'schemas/api');
const protocol = readdirSync(dir).filter((f) => f.startsWith('buyer-'));
const load = (f: string) =>
  JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
    examples?: unknown[];
    properties: Record<string, { description?: string; $ref?: string }>;
    $defs?: Record<string, { description?: string }>;
  };

describe('the buyer protocol schemas', () => {
  it('has the ping, the bid answer, the post, the post answer, the opt-out notice, the return, the certificate request, their answers and the refusal', () => {
    expect(protocol.sort()).toEqual([
      'buyer-api-refusal.schema.json',
      'buyer-bid.schema.json',
      'buyer-certificate-claim-answer.schema.json',
      'buyer-certificate-fetch-answer.schema.json',
      'buyer-certificate-verify-answer.schema.json',
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
    const validate = new Ajv2020({ strict: false, allErrors: true, formats: SCHEMA_FORMATS }).compile(schema);
    expect(schema.examples?.length).toBeGreaterThan(0);
    for (const example of schema.examples!) expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    // a property that is a definition of the schema's own ($ref: #/$defs/...) is described there: a description
    // beside a $ref makes the type generator write the definition's interface out twice
    const described = (prop: { description?: string; $ref?: string }) =>
      prop.description ?? (prop.$ref?.startsWith('#/$defs/') ? schema.$defs?.[prop.$ref.slice('#/$defs/'.length)]?.description : undefined);
    for (const [name, prop] of Object.entries(schema.properties)) expect(described(prop), `${file} ${name}`).toBeTruthy();
  });

  it('docs/lenders/protocol.md links every one of them where it lists the others', () => {
    const doc = readFileSync(join(process.cwd(), 'docs/lenders/protocol.md'), 'utf8');
    const intro = doc.slice(0, doc.indexOf('\n## '));
    for (const file of protocol) expect(intro, file).toContain(`[${file.replace('.schema.json', '')}](../../schemas/api/${file})`);
  });

  it('the ping carries nothing that identifies the borrower', () => {
    const names = Object.keys(load('buyer-ping.schema.json').properties);
    for (const personal of ['firstName', 'lastName', 'email', 'phone', 'dateOfBirth', 'zip', 'city', 'monthlyIncome', 'id', 'ip'])
      expect(names).not.toContain(personal);
  });
});

describe('what a buyer is sent matches the published schemas', () => {
  const validator = (file: string) => new Ajv2020({ strict: false, allErrors: true, formats: SCHEMA_FORMATS }).compile(load(file));
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

describe("what the protocol's words say a buyer gets is what it gets", () => {
  const describedAs = (file: string, pointer: string[]) => {
    let node: unknown = load(file);
    for (const key of pointer) node = (node as Record<string, unknown>)[key];
    return String((node as { description?: string }).description);
  };

  it("gives a Canadian lead's income band in Canadian dollars, and the ping's schema says the band is in the borrower's country's dollars", async () => {
    process.env.LEADS_ENCRYPTION_KEY = 'd'.repeat(64);
    const { leadRow } = await import('../support/leadRow');
    const { saleLeadOf } = await import('../../engine/sale/lead');
    const { pingPayload } = await import('../../engine/sale/ping');
    const { leadPayload } = await import('../../engine/sale/wire');
    // C$3,200 a month is about US$2,300: in US dollars it would be the 2000-2999 band
    const row = {
      ...leadRow({ brand: 'weloans', country: 'CA', region: 'ON', state: 'on', zip: 'M5V 2T6', currency: 'CAD', city: 'Toronto' }),
      id: 'ld_mx36co60001852b0961f5d91c',
    };
    expect(leadPayload(row)).toMatchObject({ currency: 'CAD', monthlyIncome: 3200 });
    expect(pingPayload(saleLeadOf(row), 'pg_abcdefghijklmnop').incomeBand).toBe('3000-4999');
    const band = describedAs('buyer-ping.schema.json', ['properties', 'incomeBand']);
    expect(band).not.toMatch(/US dollars/);
    expect(band).toMatch(/borrower's country/);
  });

  it("posts an Australian lead's mobile as the borrower gave it, and the post's schema does not call the phone a US one", async () => {
    process.env.LEADS_ENCRYPTION_KEY = 'd'.repeat(64);
    const { leadRow } = await import('../support/leadRow');
    const { leadPayload } = await import('../../engine/sale/wire');
    const row = {
      ...leadRow({ brand: 'fastloansau', country: 'AU', region: 'NSW', state: 'nsw', zip: '2000', currency: 'AUD', city: 'Sydney', phone: '0412345678' }),
      id: 'ld_mx36co60001852b0961f5d91c',
    };
    expect(leadPayload(row).phone).toBe('0412345678');
    const phone = describedAs('buyer-post.schema.json', ['properties', 'phone']);
    expect(phone).not.toMatch(/US phone/);
    expect(phone).toContain('0412345678');
  });

  it("posts the borrower's network, not the full address, and the post's schema says so", async () => {
    process.env.LEADS_ENCRYPTION_KEY = 'd'.repeat(64);
    const { leadRow } = await import('../support/leadRow');
    const { leadPayload } = await import('../../engine/sale/wire');
    const { truncateIp } = await import('../../engine/http/api');
    // the lead API stores the address this way (pages/api/leads.ts), and the post sends what is stored
    const row = { ...leadRow({ ip: truncateIp('203.0.113.77') }), id: 'ld_mx36co60001852b0961f5d91c' };
    expect(leadPayload(row)).toMatchObject({ consent: { ip: '203.0.113.0' } });
    expect(describedAs('buyer-post.schema.json', ['$defs', 'Consent', 'properties', 'ip'])).toMatch(/host part dropped/);
  });

  it('names the host every call to our API is sent to', () => {
    const protocol = readFileSync(join(process.cwd(), 'docs/lenders/protocol.md'), 'utf8');
    const calls = [...protocol.matchAll(/`POST ([^`]+)`/g)].map((m) => m[1]);
    expect(calls.length).toBeGreaterThanOrEqual(4);
    for (const call of calls) expect(call).toMatch(/^https:\/\/<brand host>\/api\//);
  });
});

describe('the certificate answers as docs/lenders/protocol.md gives them are the ones their schemas describe', () => {
  const doc = readFileSync(join(process.cwd(), 'docs/lenders/protocol.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Verify, claim, fetch'), doc.indexOf('### Checking a signature yourself'));
  const bullets = section.split(/\n- /).slice(1);
  const named = (text: string) => [...text.matchAll(/"(\w+)"/g)].map((m) => m[1]!);

  it.each(['verify', 'claim', 'fetch'])('%s: the fields listed are its schema’s, and every other field it may have is named', (op) => {
    const file = `buyer-certificate-${op}-answer.schema.json`;
    const bullet = bullets.find((b) => b.startsWith(`\`POST https://<brand host>/api/certificates/${op}\``));
    expect(bullet, `a bullet for ${op}`).toBeDefined();
    expect(bullet).toContain(`(../../schemas/api/${file})`);
    const listed = /200 a[\s\S]*?`(\{[^`]*\})`/.exec(bullet!)?.[1] ?? '';
    const schema = load(file) as ReturnType<typeof load> & { required: string[] };
    expect(named(listed)).toEqual(schema.required);
    for (const optional of Object.keys(schema.properties).filter((k) => !schema.required.includes(k))) expect(bullet, optional).toContain(`\`${optional}\``);
  });

  it('a refusal is described with the fields of its schema', () => {
    const refusal = load('buyer-api-refusal.schema.json');
    const listed = /\[buyer-api-refusal\]\([^)]*\),\s*`(\{[^`]*\})`/.exec(section)?.[1] ?? '';
    expect(named(listed)).toEqual(Object.keys(refusal.properties));
  });

  it('every example answer is valid against the schema linked just before it', () => {
    const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)];
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) {
      const before = section.slice(0, block.index);
      const file = [...before.matchAll(/\(\.\.\/\.\.\/schemas\/api\/([\w-]+\.schema\.json)\)/g)].at(-1)?.[1] ?? '';
      expect(file).toMatch(/^buyer-(certificate-\w+-answer|api-refusal)\.schema\.json$/);
      const validate = new Ajv2020({ strict: false, allErrors: true, formats: SCHEMA_FORMATS }).compile(load(file));
      expect(validate(JSON.parse(block[1]!)), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});

describe('the signature as docs/lenders/protocol.md shows it is the one the server makes and takes', () => {
  const protocol = readFileSync(join(process.cwd(), 'docs/lenders/protocol.md'), 'utf8');
  const section = protocol.slice(protocol.indexOf('## Signature'), protocol.indexOf('## Ping'));
  const blocks = [...section.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1] ?? '', text: (m[2] ?? '').trim() }));
  const secret = /the secret `([^`]+)`/.exec(section)?.[1] ?? '';
  const plain = blocks.filter((b) => b.lang === '');
  const code = blocks.find((b) => b.lang === 'js')?.text ?? '';
  type Snippet = { sign: (raw: Buffer, secret: string) => string; signedByUs: (raw: Buffer, header: unknown, secret: string) => boolean };
  // the snippet as a lender would paste it into a CommonJS file
  const snippet = () => new Function('require', `${code}\nreturn { sign, signedByUs };`)(createRequire(import.meta.url)) as Snippet;

  it('gives a worked example whose header is the HMAC our requests carry and our API accepts', async () => {
    const { signature } = await import('../../engine/sale/wire');
    const { signedBy } = await import('../../engine/sale/returns');
    expect(secret.length).toBeGreaterThanOrEqual(16);
    expect(plain).toHaveLength(2);
    const [body, header] = [plain[0]!.text, plain[1]!.text];
    expect(header).toBe(`X-Loansites-Signature: ${signature(secret, body)}`);
    const buyer = { id: 'acme' } as Buyer;
    const value = header.slice('X-Loansites-Signature: '.length);
    expect(
      signedBy(
        Buffer.from(body),
        'acme',
        value,
        () => buyer,
        () => secret,
      ),
    ).toBe(buyer);
    const ret = new Ajv2020({ strict: false, formats: SCHEMA_FORMATS }).compile(load('buyer-return.schema.json'));
    expect(ret(JSON.parse(body)), JSON.stringify(ret.errors)).toBe(true);
  });

  it("gives Node code that checks a real post's signature, refuses a changed body, and signs a return our API accepts", async () => {
    process.env.LEADS_ENCRYPTION_KEY = 'd'.repeat(64);
    const { leadRow } = await import('../support/leadRow');
    const { leadPayload, signature } = await import('../../engine/sale/wire');
    const { signedBy } = await import('../../engine/sale/returns');
    const { sign, signedByUs } = snippet();
    const post = JSON.stringify(leadPayload({ ...leadRow({ first_name: 'José' }), id: 'ld_mx36co60001852b0961f5d91c' }));
    const raw = Buffer.from(post);
    expect(signedByUs(raw, signature(secret, post), secret)).toBe(true);
    expect(signedByUs(Buffer.from(post.replace('ld_mx36', 'ld_mx37')), signature(secret, post), secret)).toBe(false);
    expect(signedByUs(raw, undefined, secret)).toBe(false);
    const ret = Buffer.from('{"leadId":"ld_mx36co60001852b0961f5d91c","reason":"fraud","note":"José"}');
    const buyer = { id: 'acme' } as Buyer;
    expect(
      signedBy(
        ret,
        'acme',
        sign(ret, secret),
        () => buyer,
        () => secret,
      ),
    ).toBe(buyer);
  });
});

describe('what docs/lenders/protocol.md tells a deliver buyer to answer is what the outbox reads', () => {
  const protocol = readFileSync(join(process.cwd(), 'docs/lenders/protocol.md'), 'utf8');
  const deliver = protocol.slice(protocol.indexOf('## Deliver'), protocol.indexOf('## Consent certificates'));

  it('a repeat of a delivery still being stored is answered so that it is asked again, never with the 409 a post may get', async () => {
    const { answerKind } = await import('../../engine/outbox/deliver');
    const advised = /answer it 2xx once the lead is stored, or (\d{3}) to be asked\s+again later/.exec(deliver);
    expect(advised, 'the Deliver section says what to answer a repeat still being stored').not.toBeNull();
    expect(answerKind(Number(advised![1]))).toBe('retry');
    // the Idempotency section's 409 would be taken as a refusal: the section must say so
    expect(answerKind(409)).toBe('refused');
    expect(deliver).toMatch(/not 409[^.]*refusal/);
  });
});

describe('the defaults docs/lenders/protocol.md gives a lender are the buyer document’s', () => {
  const protocol = readFileSync(join(process.cwd(), 'docs/lenders/protocol.md'), 'utf8').replace(/\s+/g, ' ');
  const buyer = JSON.parse(readFileSync(join(process.cwd(), 'schemas/buyer.schema.json'), 'utf8')) as {
    properties: Record<'returnWindowDays' | 'acceptsDuplicates' | 'acceptsTestLeads', { default?: unknown }>;
    $defs: { timeouts: { properties: Record<string, { default: number; maximum: number }> } };
  };
  const stated = (re: RegExp) => {
    const m = re.exec(protocol);
    expect(m, String(re)).not.toBeNull();
    return m!.slice(1).map((v) => (v === 'true' || v === 'false' ? v === 'true' : Number(v.replace(/,/g, ''))));
  };

  it('states the timeouts, the return window and what is offered by default as the schema defaults them', () => {
    for (const name of ['pingMs', 'postMs']) {
      const t = buyer.$defs.timeouts.properties[name]!;
      expect(stated(new RegExp(`\`${name}\` default ([\\d,]+), at most ([\\d,]+)`))).toEqual([t.default, t.maximum]);
    }
    expect(stated(/`returnWindowDays`, default (\d+)/)).toEqual([buyer.properties.returnWindowDays.default]);
    expect(stated(/`acceptsDuplicates` default (true|false)/)).toEqual([buyer.properties.acceptsDuplicates.default]);
    expect(stated(/`acceptsTestLeads` default (true|false)/)).toEqual([buyer.properties.acceptsTestLeads.default]);
  });
});

describe('the examples of the buyer protocol tell the story of one lead', () => {
  type Post = {
    id: string;
    pingId: string;
    phone: string;
    email: string;
    createdAt: string;
    dateOfBirth: string;
    monthlyIncome: number;
    zip: string;
    consent: { version: string; text: string; sha256: string };
    tracking: { source: string };
    certificate?: { id: string; url: string };
  } & Record<string, unknown>;
  const post = load('buyer-post.schema.json').examples![0] as Post;
  const ping = load('buyer-ping.schema.json').examples![0] as Record<string, unknown>;
  const certificate = load('buyer-certificate.schema.json').examples![0] as { certificateId: string; phoneSha256?: string };
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  it("the post's consent hash is the SHA-256 of its text, as a buyer checking it computes", () => {
    expect(post.consent.sha256).toBe(sha256(post.consent.text));
  });

  it('the post carries the certificate the ping named, on its brand’s host, and the certificate request hashes its phone', () => {
    expect(post.certificate?.id).toBe(ping.certificateId);
    expect(post.certificate?.url).toMatch(new RegExp(`^https://[^/]+/certificate/${post.certificate?.id}$`));
    expect(certificate.certificateId).toBe(post.certificate?.id);
    expect(certificate.phoneSha256).toBe(sha256(post.phone.replace(/\D/g, '')));
  });

  it("the certificate answers' examples are of the posted lead's certificate", () => {
    const verify = load('buyer-certificate-verify-answer.schema.json').examples![0] as { certificateId: string; issuedAt: string; kid: string };
    const claim = load('buyer-certificate-claim-answer.schema.json').examples![0] as { certificateId: string; claimedAt: string; expiresAt: string };
    const fetched = load('buyer-certificate-fetch-answer.schema.json').examples![0] as {
      certificate: {
        id: string;
        leadId: string;
        brand: string;
        issuedAt: string;
        consent: { version: string; text: string; sha256: string };
        page: { url: string };
      };
      signature: { kid: string };
      expiresAt: string;
    };
    for (const id of [verify.certificateId, claim.certificateId, fetched.certificate.id]) expect(id).toBe(post.certificate?.id);
    expect(fetched.certificate).toMatchObject({
      leadId: post.id,
      brand: post.brand,
      issuedAt: post.createdAt,
      consent: { version: post.consent.version, text: post.consent.text, sha256: post.consent.sha256 },
    });
    expect(new URL(fetched.certificate.page.url).origin).toBe(new URL(post.certificate!.url).origin);
    expect(verify.issuedAt).toBe(post.createdAt);
    expect(verify.kid).toBe(fetched.signature.kid);
    // fetched after the claim: kept from it
    expect(fetched.expiresAt).toBe(claim.expiresAt);
    expect(claim.claimedAt > post.createdAt).toBe(true);
  });

  it('the ping is the one our server sends for the posted lead', async () => {
    const { ageBand, incomeBand } = await import('../../engine/sale/ping');
    const [born, at] = [new Date(post.dateOfBirth), new Date(post.createdAt)];
    const age = at.getUTCFullYear() - born.getUTCFullYear() - (at.toISOString().slice(5, 10) < post.dateOfBirth.slice(5, 10) ? 1 : 0);
    expect(ping).toMatchObject({
      pingId: post.pingId,
      test: post.test,
      brand: post.brand,
      source: post.tracking.source,
      loanKind: post.loanKind,
      amount: post.amount,
      country: post.country,
      state: post.state,
      zip3: post.zip.slice(0, 3),
      incomeBand: incomeBand(post.monthlyIncome),
      ageBand: ageBand(age),
      payFrequency: post.payFrequency,
      incomeSource: post.incomeSource,
    });
  });
});

describe('a consent certificate checked as docs/lenders/protocol.md shows it', () => {
  const protocol = readFileSync(join(process.cwd(), 'docs/lenders/protocol.md'), 'utf8');
  const section = protocol.slice(protocol.indexOf('### Checking a signature yourself'), protocol.indexOf('### Third-party consent certificates'));
  const blocks = [...section.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1] ?? '', text: (m[2] ?? '').trim() }));
  const code = blocks.find((b) => b.lang === 'js')?.text ?? '';
  // pasted into a CommonJS file: only `require`, the key set and the fetched certificate are given
  const check = (keys: unknown, signed: unknown) =>
    new Function('require', 'keys', 'signed', `${code}\nreturn { ok, canonical };`)(createRequire(import.meta.url), keys, signed) as {
      ok: boolean;
      canonical: (v: unknown) => string;
    };

  it('the worked canonical JSON example is what the server signs', async () => {
    const { canonicalJson } = await import('../../engine/leads/certificate/canonical');
    const [input, bytes] = [blocks.find((b) => b.lang === 'json')!.text, blocks.find((b) => b.lang === '')!.text];
    expect(canonicalJson(JSON.parse(input))).toBe(bytes);
  });

  it('the Node code runs as written and verifies a certificate the server signed with its published keys, and no other', async () => {
    process.env.LEADS_ENCRYPTION_KEY = 'd'.repeat(64);
    const { keyringOf } = await import('../../engine/keys/sealing');
    const { certificateKeys, wellKnownKeys } = await import('../../engine/leads/certificate/keys');
    const { canonicalJson } = await import('../../engine/leads/certificate/canonical');
    const { signCertificate } = await import('../../engine/leads/certificate/certificate');
    const keys = certificateKeys(keyringOf([Buffer.alloc(32, 2), Buffer.alloc(32, 1)]));
    const certificate = { brand: 'ipaydayloans', consent: { text: 'José agreed', sha256: 'ab' }, test: false, version: 1 };
    const signed = signCertificate(certificate as never, keys);
    // as the buyer gets them: JSON over the wire
    const [set, fetched] = [JSON.parse(JSON.stringify(wellKnownKeys(keys))), JSON.parse(JSON.stringify(signed))];
    const run = check(set, fetched);
    expect(run.ok).toBe(true);
    expect(run.canonical(fetched.certificate)).toBe(canonicalJson(signed.certificate));
    const altered = { ...fetched, certificate: { ...fetched.certificate, consent: { ...fetched.certificate.consent, text: 'José agreed.' } } };
    expect(check(set, altered).ok).toBe(false);
    expect(check({ keys: [] }, fetched).ok).toBe(false);
  });
});
