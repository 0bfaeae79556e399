import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBuyerCatalog, missingSecrets, readBuyerSources, requireBuyerSecrets } from '../../engine/sale/buyers';

const good = readFileSync(join(process.cwd(), 'tests/fixtures/buyers/acme-lending.json'), 'utf8');
const brands = new Set(['ipaydayloans', 'ustitleloans']);
const edit = (change: (b: Record<string, unknown>) => void) => {
  const b = JSON.parse(good) as Record<string, unknown>;
  change(b);
  return JSON.stringify(b, null, 2);
};
const one = (text: string) => buildBuyerCatalog([{ file: 'buyers/x.json', text }], brands);

describe('buyer documents', () => {
  it('accepts every example buyer in tests/fixtures/buyers', () => {
    const c = buildBuyerCatalog(readBuyerSources(join(process.cwd(), 'tests/fixtures/buyers')), brands);
    expect(c.problems).toEqual([]);
    expect([...c.buyers.keys()].sort()).toEqual(['acme-lending', 'shared-outbox']);
  });

  it.each([
    ['a trailing comma', good.replace('"returnWindowDays": 7', '"returnWindowDays": 7,'), /^buyers\/x\.json:\d+:\d+ \/: not valid JSON: a property name/],
    ['an unknown property', edit((b) => (b.secret = 'abc')), /^buyers\/x\.json:\d+:3 \/secret: unknown property "secret"/],
    [
      'a secret in place of a variable name',
      edit((b) => (b.secretEnv = 's3cr3t-value')),
      /\/secretEnv: "s3cr3t-value" is not valid: expected an environment variable name/,
    ],
    ['an unknown mode', edit((b) => (b.mode = 'auction')), /\/mode: "auction" is not allowed here \(allowed: ping-post, direct-post, deliver\)/],
    ['a ping timeout over the cap', edit((b) => (b.timeouts = { pingMs: 10000 })), /\/timeouts\/pingMs: must be at most 3000/],
    ['a post timeout over the cap', edit((b) => (b.timeouts = { postMs: 60000 })), /\/timeouts\/postMs: must be at most 30000/],
    [
      'a ping-post buyer without a ping endpoint',
      edit((b) => (b.endpoints = { post: 'https://a.example/post' })),
      /\/endpoints: a ping-post buyer needs endpoints\.ping/,
    ],
    [
      'a plain-http endpoint on the internet',
      edit((b) => (b.endpoints = { ping: 'http://a.example/p', post: 'https://a.example/q' })),
      /\/endpoints\/ping: http:\/\/a\.example\/p must use https/,
    ],
    [
      'an endpoint with a password in it',
      edit((b) => (b.endpoints = { ping: 'https://acme:hunter2@a.example/p', post: 'https://a.example/q' })),
      /\/endpoints\/ping: must not carry a user name or password: requests to the buyer are signed with its secret/,
    ],
    [
      'an opt-out URL with a user name in it',
      edit((b) => (b.optOutUrl = 'https://acme@a.example/opt-out')),
      /\/optOutUrl: must not carry a user name or password/,
    ],
    [
      'a time zone that does not exist',
      edit((b) => (b.schedule = { timeZone: 'America/Gotham' })),
      /\/schedule\/timeZone: "America\/Gotham" is not an IANA time zone/,
    ],
    [
      'an amount range upside down',
      edit((b) => ((b.filters as Record<string, unknown>).amount = { min: 900, max: 100 })),
      /\/filters\/amount: min \(900\) is above max \(100\)/,
    ],
    [
      'a state written in lower case',
      edit((b) => ((b.filters as Record<string, unknown>).states = { allow: ['tx'] })),
      /\/filters\/states\/allow\/0: "tx" is not valid: expected a state, province or territory code in capitals/,
    ],
    ['both allow and deny lists', edit((b) => ((b.filters as Record<string, unknown>).states = { allow: ['TX'], deny: ['NY'] })), /\/filters\/states: /],
    ['an unknown brand', edit((b) => ((b.filters as Record<string, unknown>).brands = ['nosuchbrand'])), /\/filters\/brands\/0: no brand "nosuchbrand"/],
    ['a fixed price under the floor', edit((b) => (b.price = { fixed: 2, floor: 5 })), /\/price\/fixed: the fixed price 2 is under the floor 5/],
    ['a fixed price finer than a cent', edit((b) => (b.price = { fixed: 10.005 })), /\/price\/fixed: 10\.005 is finer than a cent/],
    ['a floor finer than a cent', edit((b) => (b.price = { floor: 2.001 })), /\/price\/floor: 2\.001 is finer than a cent/],
    ['a selling buyer without redirect hosts', edit((b) => delete b.redirectHosts), /\/redirectHosts: a ping-post buyer sends borrowers on/],
    [
      'a redirect host with a scheme',
      edit((b) => (b.redirectHosts = ['https://x.example'])),
      /\/redirectHosts\/0: "https:\/\/x\.example" is not valid: expected a lower-case host name/,
    ],
  ])('refuses %s with file:line:col, pointer and reason', (_, text, message) => {
    const c = one(text);
    expect(c.buyers.size).toBe(0);
    expect(
      c.problems.some((p) => message.test(p)),
      c.problems.join('\n'),
    ).toBe(true);
    expect(
      c.problems.every((p) => /^buyers\/x\.json:\d+:\d+ \//.test(p)),
      c.problems.join('\n'),
    ).toBe(true);
  });

  it('a buyer can take Australian leads from some states only, and refuse a Canadian territory', () => {
    const au = edit((b) => ((b.filters as Record<string, unknown>).states = { allow: ['NSW', 'ACT', 'VIC'] }));
    expect(one(au).problems).toEqual([]);
    const ca = edit((b) => ((b.filters as Record<string, unknown>).states = { deny: ['QC', 'NU'] }));
    expect(one(ca).problems).toEqual([]);
  });

  it('keeps the other buyers when one file is broken, and refuses a second buyer with the same id', () => {
    const c = buildBuyerCatalog(
      [
        { file: 'buyers/a.json', text: good },
        { file: 'buyers/b.json', text: '{ "id": ' },
        { file: 'buyers/c.json', text: good },
      ],
      brands,
    );
    expect([...c.buyers.keys()]).toEqual(['acme-lending']);
    expect([...c.broken.keys()]).toEqual(['buyers/b.json', 'buyers/c.json']);
    expect(c.broken.get('buyers/c.json')![0]).toMatch(/\/id: "acme-lending" is already the id of buyers\/a\.json/);
  });

  it('reads the folder named by a path and skips files that are not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'buyers-'));
    writeFileSync(join(dir, 'acme.json'), good);
    writeFileSync(join(dir, 'notes.md'), '# not a buyer');
    expect(readBuyerSources(dir).map((s) => s.file.endsWith('acme.json'))).toEqual([true]);
    expect(readdirSync(dir)).toHaveLength(2);
    expect(readBuyerSources(join(dir, 'missing'))).toEqual([]);
  });

  it('refuses to start a deployment whose buyer secret is unset, saying which variable and buyer', () => {
    const c = one(good);
    expect(() => requireBuyerSecrets(c, { LOANSITES_DEPLOYMENT: 'production' })).toThrow(/BUYER_ACME_SECRET \(buyer "acme-lending", buyers\/x\.json\)/);
    expect(() => requireBuyerSecrets(c, { LOANSITES_DEPLOYMENT: 'production', BUYER_ACME_SECRET: 'a'.repeat(64) })).not.toThrow();
    expect(missingSecrets(c, {})).toHaveLength(1);
    expect(() => requireBuyerSecrets(c, {})).not.toThrow(); // outside a deployment: left out of the sale, logged
  });

  it('refuses to start a deployment whose buyer secret is shorter than 16 characters: it signs the refunds the buyer asks for', () => {
    const c = one(good);
    expect(() => requireBuyerSecrets(c, { LOANSITES_DEPLOYMENT: 'production', BUYER_ACME_SECRET: 'k' })).toThrow(
      /^Buyer secrets are shorter than 16 characters: BUYER_ACME_SECRET \(buyer "acme-lending", buyers\/x\.json\)/,
    );
    expect(() => requireBuyerSecrets(c, { LOANSITES_DEPLOYMENT: 'production', BUYER_ACME_SECRET: '  fifteen-chars-x  ' })).toThrow(/shorter than 16/);
    expect(() => requireBuyerSecrets(c, { LOANSITES_DEPLOYMENT: 'production', BUYER_ACME_SECRET: 'sixteen-chars-ok' })).not.toThrow();
    expect(() => requireBuyerSecrets(c, { BUYER_ACME_SECRET: 'k' })).not.toThrow(); // outside a deployment: warned about
  });

  it('npm run validate checks the buyers folder and fails on a broken buyer, naming file, line, column and pointer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'buyers-validate-'));
    writeFileSync(join(dir, 'good.json'), good);
    writeFileSync(join(dir, 'bad.json'), edit((b) => (b.mode = 'auction')).replace('"acme-lending"', '"other"'));
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/validate.ts'], {
      env: { ...process.env, LOANSITES_BUYERS_DIR: dir },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/bad\.json:\d+:\d+ \/mode: "auction" is not allowed here/);
    expect(run.stdout).toContain('validate: 1 buyer valid, 1 broken');
  }, 60_000);
});
