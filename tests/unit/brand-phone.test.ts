/**
 * A brand's own telephone as an operator gives it (engine/site/brandPhone.ts): a number of the
 * brand's country, toll-free ones included, written back the way the brand files write one; a
 * premium-rate number, one with an extension or one of another country refused with what to give
 * instead — at the wizard's question (POST /api/console/studio/check, and POST brands, nothing
 * made), in the studio's problems of a draft (Publish refused) and by `npm run validate`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBrandPhone } from '../../engine/site/brandPhone';
import { studioRoute } from '../../engine/console/studioApi';
import { hashPassword } from '../../engine/console/passwords';
import { addUser } from '../../engine/store/console';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import type { Country } from '../../engine/browser/regions';
import { consoleSignIn } from '../support/consoleForm';
import { studioRequest } from '../support/studioRequest';

const refused = (text: string, country: Country) => {
  const read = readBrandPhone(text, country);
  if (!('problem' in read)) throw new Error(`"${text}" (${country}) was accepted as ${read.phone}`);
  return read.problem;
};

describe('a brand telephone, read for its country', () => {
  it.each([
    // [country, as typed, as the brand files write it]
    ['US', '(212) 555-0123', '+1-212-555-0123'],
    ['US', '+1 512 867 5309', '+1-512-867-5309'],
    ['CA', '+1-416-555-0187', '+1-416-555-0187'],
    ['CA', '416.555.0187', '+1-416-555-0187'],
    ['AU', '+61 412 345 678', '+61 412 345 678'],
    ['AU', '0412345678', '+61 412 345 678'],
    ['AU', '(02) 5550 0148', '+61 2 5550 0148'],
  ] as const)('%s: "%s" is a number of the country, written %s', (country, typed, written) => {
    expect(readBrandPhone(typed, country)).toEqual({ phone: written });
  });

  it.each([
    ['US', '1-800-555-0190', '+1-800-555-0190'],
    ['US', '888 555 0185', '+1-888-555-0185'],
    // North America's toll-free numbers ring in Canada too
    ['CA', '+1 (800) 555-0190', '+1-800-555-0190'],
    ['CA', '877-555-0100', '+1-877-555-0100'],
    // Australia's freecall and local-rate numbers, written as they are dialled there (not from abroad)
    ['AU', '1800 007 007', '1800 007 007'],
    ['AU', '+61 1800 007 007', '1800 007 007'],
    ['AU', '1300123456', '1300 123 456'],
    ['AU', '131114', '13 11 14'],
  ] as const)('%s: the toll-free "%s" is taken, written %s', (country, typed, written) => {
    expect(readBrandPhone(typed, country)).toEqual({ phone: written });
  });

  it('writes every sample brand’s telephone as it stands in its file', () => {
    const files = readdirSync('brands').filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const brand = JSON.parse(readFileSync(join('brands', f), 'utf8')) as { country: Country; organization: { telephone: string } };
      expect(readBrandPhone(brand.organization.telephone, brand.country), f).toEqual({ phone: brand.organization.telephone });
    }
  });

  it('refuses a premium-rate number in each country', () => {
    expect(refused('+1-900-555-0100', 'US')).toBe(
      '"+1-900-555-0100" is a premium-rate number: callers pay extra for every minute; give a number borrowers can call at the normal rate or free, such as +1-800-555-0100',
    );
    expect(refused('1-900-555-0100', 'CA')).toMatch(/^"1-900-555-0100" is a premium-rate number: .* such as \+1-416-555-0187$/);
    expect(refused('1900 123 456', 'AU')).toMatch(/^"1900 123 456" is a premium-rate number: .* such as \+61 2 5550 0148$/);
  });

  it('refuses a number with an extension, however it is written', () => {
    const why =
      "give a number that reaches the brand without one: the pages' call links dial every digit written, so an extension would be dialled as part of the number";
    expect(refused('+1-416-555-0187 ext. 12', 'CA')).toBe(`"+1-416-555-0187 ext. 12" has an extension (12); ${why}`);
    expect(refused('+1-800-555-0190 x 4', 'US')).toBe(`"+1-800-555-0190 x 4" has an extension (4); ${why}`);
    expect(refused('+61 2 5550 0148 ext 7', 'AU')).toBe(`"+61 2 5550 0148 ext 7" has an extension (7); ${why}`);
  });

  it('refuses a number of another country, naming both', () => {
    expect(refused('+1-416-555-0187', 'US')).toBe(
      '"+1-416-555-0187" is a Canadian number (area code 416), but this brand is in the United States: give the brand\'s number in the United States, written like +1-800-555-0100',
    );
    expect(refused('(212) 555-0123', 'CA')).toBe(
      '"(212) 555-0123" is a US number (area code 212), but this brand is in Canada: give the brand\'s number in Canada, written like +1-416-555-0187',
    );
    expect(refused('+61 412 345 678', 'CA')).toBe(
      '"+61 412 345 678" is an Australian number, but this brand is in Canada: give the brand\'s number in Canada, written like +1-416-555-0187',
    );
    expect(refused('+44 20 7946 0958', 'AU')).toBe(
      '"+44 20 7946 0958" is a +44 number (United Kingdom), but this brand is in Australia: give the brand\'s number in Australia, written like +61 2 5550 0148',
    );
    // an Australian mobile written the Australian way is no North American number at all
    expect(refused('0412 345 678', 'US')).toMatch(/^"0412 345 678" is not a valid phone number/);
  });

  it('refuses what is no number in use, saying why', () => {
    expect(refused('call us', 'US')).toBe('"call us" is not a phone number; write one such as +1-800-555-0100');
    expect(refused('555-0187', 'CA')).toBe('"555-0187" has too few digits for a phone number; write it with its area code, such as +1-416-555-0187');
    expect(refused('+1-976-555-0100', 'US')).toBe(
      '"+1-976-555-0100" is not a valid phone number: 976 is no North American area code in use; check the digits (a number is written like +1-800-555-0100)',
    );
    expect(refused(' ', 'AU')).toBe("give the brand's phone number, e.g. +61 2 5550 0148");
  });
});

describe('the studio, with a wrong telephone', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'loansites-brand-phone-'));
  let store: Store;
  let editor: { cookie: string; csrf: string };
  beforeAll(async () => {
    store = openStore({ url: '', file: join(tmp, 'studio.sqlite') });
    await migrateStore(store);
    await addUser(store, { email: 'phones@example.com', role: 'editor', passwordHash: await hashPassword('a long passphrase 1', { N: 2 ** 12, r: 8, p: 1 }) });
    editor = (await consoleSignIn(store, 'phones@example.com', 'a long passphrase 1'))!;
  });
  afterAll(async () => {
    await store?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers' bodies are read as JSON
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> => {
    try {
      return (await studioRoute(store, studioRequest(method, path, editor, body), path.split('/').filter(Boolean), { announce: async () => {} })) as {
        status: number;
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        body: Record<string, any>;
      };
    } catch (err) {
      const e = err as { status?: number; message: string };
      if (!e.status) throw err;
      return { status: e.status, body: { error: e.message } };
    }
  };
  const answers = (id: string, country: Country, phone: string, address: string) => ({
    id,
    name: 'Phone Test Loans',
    country,
    kind: 'general',
    hosts: `${id}.example.com`,
    primaryColor: '#0b5394',
    phone,
    email: `help@${id}.example.com`,
    address,
  });
  const TORONTO = '240 Richmond St W, Suite 410, Toronto, ON M5V 1V6';

  it('the wizard refuses a premium-rate, an extension or another country’s number at its question, and makes nothing with one', async () => {
    const check = (value: string, country: Country) => call('POST', 'check', { question: 'phone', value, answers: { country } });
    expect((await check('+1-900-555-0100', 'US')).body).toEqual({
      ok: false,
      message: expect.stringMatching(/^"\+1-900-555-0100" is a premium-rate number: callers pay extra for every minute/),
    });
    expect((await check('+1-416-555-0187 ext. 12', 'CA')).body).toEqual({ ok: false, message: expect.stringMatching(/has an extension \(12\)/) });
    expect((await check('+1-416-555-0187', 'AU')).body).toEqual({
      ok: false,
      message: expect.stringMatching(/is a Canadian number \(area code 416\), but this brand is in Australia/),
    });
    expect((await check('1800 007 007', 'AU')).body).toEqual({ ok: true });
    // a number typed another way is accepted, and the operator is told how the brand will show it
    expect((await check('(416) 555-0187', 'CA')).body).toEqual({ ok: true, warning: 'the brand will show it as +1-416-555-0187' });
    expect((await check('  +1-416-555-0187 ', 'CA')).body).toEqual({ ok: true });

    const made = await call('POST', 'brands', { answers: answers('phonepremium', 'AU', '1900 123 456', 'Level 8, 45 Clarence St, Sydney, NSW 2000') });
    expect(made).toEqual({
      status: 422,
      body: {
        error: 'some answers need another look',
        problems: [{ question: 'phone', message: expect.stringMatching(/^"1900 123 456" is a premium-rate number/) }],
      },
    });
    expect((await call('GET', 'brands/phonepremium')).status).toBe(404);
  });

  it('the wizard makes the brand with its number written the brand files’ way', async () => {
    expect(await call('POST', 'brands', { answers: answers('phonewritten', 'CA', '(416) 555-0187', TORONTO) })).toMatchObject({ status: 201 });
    const opened = await call('GET', 'brands/phonewritten');
    expect(opened.body.document.organization.telephone).toBe('+1-416-555-0187');
    expect(opened.body.problems).toEqual([]);
  });

  it('a draft with a wrong telephone lists it at the field, and is not published', async () => {
    const opened = await call('GET', 'brands/phonewritten');
    const document = { ...opened.body.document, organization: { ...opened.body.document.organization, telephone: '+1-900-555-0100' } };
    const saved = await call('PUT', 'brands/phonewritten/draft', { document, expectedVersion: opened.body.version });
    expect(saved.status).toBe(200);
    const problem = {
      pointer: '/organization/telephone',
      file: 'brands/phonewritten.json',
      message: expect.stringMatching(/^"\+1-900-555-0100" is a premium-rate number/),
      text: expect.stringMatching(/^brands\/phonewritten\.json:\d+:\d+ \/organization\/telephone: "\+1-900-555-0100" is a premium-rate number/),
    };
    expect(saved.body.problems).toEqual([problem]);
    const publish = await call('POST', 'brands/phonewritten/publish', { version: saved.body.version });
    expect(publish).toMatchObject({ status: 422, body: { problems: [problem] } });
  });
});

describe('npm run validate, with a wrong telephone', () => {
  // the validator on a project root holding one brand, as the build's first step runs it
  const validate = (telephone: string, args: string[], env: Record<string, string> = {}) => {
    const root = mkdtempSync(join(tmpdir(), 'loansites-phone-check-'));
    try {
      mkdirSync(join(root, 'brands'));
      cpSync(join(process.cwd(), 'brands/layouts'), join(root, 'brands/layouts'), { recursive: true });
      cpSync(join(process.cwd(), 'brands/parts'), join(root, 'brands/parts'), { recursive: true });
      const sample = readFileSync(join(process.cwd(), 'brands/weloans.json'), 'utf8');
      // the sample's placeholders replaced by real-looking values: a deployment refuses those on their own
      const brand = sample
        .replace('"+1-416-555-0187"', JSON.stringify(telephone))
        .replace(/"pk\.[^"]+"/, '"pk.eyJ1Ijoid2Vsb2FucyJ9.real"')
        .replace(/"6Lc-[^"]+"/, '"6LcR3alW3loansK3y"');
      writeFileSync(join(root, 'brands/weloans.json'), brand);
      return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/validate.ts', ...args], {
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, LOANSITES_ROOT: root, LOANSITES_BUYERS_DIR: join(root, 'buyers'), LOANSITES_DEPLOYMENT: '', ...env },
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };

  it('prints the telephone at its file:line:col and fails; the build goes on locally but a deployment stops', () => {
    // a premium-rate number passes the schema's pattern: this check alone finds it
    const line = /^brands\/weloans\.json:29:5 \/organization\/telephone: "\+1-900-301-0187" is a premium-rate number: callers pay extra/m;
    const plain = validate('+1-900-301-0187', []);
    expect(plain.stderr).toMatch(line);
    expect(plain.status).toBe(1);
    const build = validate('+1-900-301-0187', ['--allow-broken']);
    expect(build.stderr).toMatch(line);
    expect(build.status).toBe(0);
    const deployed = validate('+1-900-301-0187', ['--allow-broken'], { LOANSITES_DEPLOYMENT: 'production' });
    expect(deployed.stderr).toMatch(line);
    // the telephone alone stops it: nothing else is a placeholder
    expect(deployed.stderr).not.toMatch(/placeholder|fictional/);
    expect(deployed.status).toBe(1);
  }, 300_000);

  it('passes the number written another way, and in a deployment too', () => {
    const deployed = validate('(416) 301-0187', ['--allow-broken'], { LOANSITES_DEPLOYMENT: 'production' });
    expect(deployed.stderr).toBe('');
    expect(deployed.status).toBe(0);
  }, 120_000);
});
