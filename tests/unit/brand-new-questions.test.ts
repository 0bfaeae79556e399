/**
 * npm run brand:new asked question by question (answers on standard input, as a person types
 * them): a question without a default left blank is asked again instead of ending the command,
 * and a button colour too light for white text is refused at its own question, so nothing
 * answered before is typed again. The studio's wizard checks each answer with the same words.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAnswer, newBrandDocument, ORG_EMAIL_PATTERN, readAnswers } from '../../engine/site/brandQuestions';
import { checkBrandDocument } from '../../engine/site/brandOverlay';
import brandBase from '../../schemas/brand.base.json' with { type: 'json' };

const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'brand-new-asked-'));
const dir = relative(root, join(work, 'brands'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ask = (lines: string[]) => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/brand-new.ts', '--dir', dir, '--public-dir', relative(root, join(work, 'public'))], {
    cwd: root,
    encoding: 'utf8',
    input: lines.join('\n') + '\n',
  });
  return { status: run.status, out: run.stdout, err: run.stderr };
};

const WHITE_ON_YELLOW = 'white text on #ffd54f has a contrast of 1.4:1; it needs at least 4.5:1 to be readable — use a darker colour';

describe('npm run brand:new, asked', () => {
  it('asks a question without a default again when it is left blank, and keeps the answers before it', () => {
    const run = ask([
      'askedagain',
      '',
      'Asked Again Loans',
      '',
      '',
      '',
      '#0b5394',
      '',
      '+1-800-555-0100',
      'help@askedagain.com',
      '1 Main St, Austin, TX 78701',
      '',
      '',
    ]);
    expect(run.err).toBe('');
    expect(run.out).not.toContain('--name is missing');
    expect(run.out).toContain('this needs an answer (it has no default)');
    expect(run.out.match(/The brand name visitors see: /g)).toHaveLength(2);
    expect(run.status).toBe(0);
    expect(existsSync(join(work, 'brands/askedagain.json'))).toBe(true);
  });

  it('refuses a light button colour at its question and asks for it again', () => {
    const run = ask([
      'lightbutton',
      'Light Button Loans',
      '',
      '',
      '',
      '#ffd54f',
      '#0b5394',
      '',
      '+1-800-555-0100',
      'help@lightbutton.com',
      '1 Main St, Austin, TX 78701',
      '',
      '',
    ]);
    expect(run.err).toBe('');
    const refusedAt = run.out.indexOf(WHITE_ON_YELLOW);
    expect(refusedAt).toBeGreaterThan(0);
    // refused before the next question (the progress colour) was asked
    expect(run.out.indexOf('Progress bar colour')).toBeGreaterThan(refusedAt);
    expect(run.status).toBe(0);
    expect(existsSync(join(work, 'brands/lightbutton.json'))).toBe(true);
  });
});

describe('the wizard’s checks', () => {
  it('checks one answer as it is given, in the words of brand:new', () => {
    expect(checkAnswer('primaryColor', '#ffd54f')).toEqual({ ok: false, message: WHITE_ON_YELLOW, value: '#ffd54f' });
    expect(checkAnswer('primaryColor', '#0b5394')).toMatchObject({ ok: true });
    expect(checkAnswer('name', '  ')).toEqual({ ok: false, message: 'this needs an answer (it has no default)' });
    expect(checkAnswer('hosts', '', { id: 'acme' })).toEqual({ ok: true, value: 'acme.com,www.acme.com' });
    // the brand's name typed as its key is refused with the key it would be
    expect(checkAnswer('id', 'Acme Loans')).toMatchObject({ ok: false, message: expect.stringMatching(/letter or digit, e\.g\. acme-loans$/) });
    expect(checkAnswer('id', '-acme')).toMatchObject({ ok: false, message: expect.stringMatching(/e\.g\. acmeloans$/) });
    // a blank answer made from another one is not said to have no default: it says which answer it waits for
    expect(checkAnswer('mapKey', '', {})).toEqual({
      ok: false,
      message: 'give an answer, or leave it blank once "The brand key" is accepted: it is then made from that answer',
    });
    expect(checkAnswer('progressColor', '')).toMatchObject({ message: expect.stringContaining('once "Primary colour" is accepted') });
    expect(checkAnswer('hosts', 'https://acme.com')).toMatchObject({ ok: false, message: expect.stringMatching(/no https:\/\//) });
    // a host listed twice is told at the question, not only when the brand is made
    expect(checkAnswer('hosts', 'acme.com, www.acme.com,acme.com')).toEqual({
      ok: false,
      message: '"acme.com" is in the list twice; keep one',
      value: 'acme.com, www.acme.com,acme.com',
    });
  });

  it('refuses a contact email with mailto: parameters, as the brand schema does', () => {
    expect(checkAnswer('email', 'help@acmeloans.com?bcc=x%40evil.example')).toMatchObject({ ok: false, message: expect.stringMatching(/plain email address/) });
    expect(checkAnswer('email', 'mailto:help@acmeloans.com')).toMatchObject({ ok: false });
    expect(checkAnswer('email', 'help@acmeloans.com')).toMatchObject({ ok: true });
    expect(ORG_EMAIL_PATTERN).toBe(brandBase.$defs.organization.properties.email.pattern);
  });

  it('names every question with a problem at once', () => {
    const read = readAnswers({ id: 'ok-id', name: '', primaryColor: '#ffd54f' });
    expect('problems' in read && read.problems.map((p) => p.question)).toEqual(['name', 'primaryColor', 'progressColor', 'phone', 'email', 'address']);
  });

  it('checks the address in the shape of the brand’s country, and says when it is another country’s', () => {
    const ca = { country: 'CA' };
    const au = { country: 'AU' };
    expect(checkAnswer('address', '240 Richmond St W, Toronto, Ontario M5V 1V6', ca)).toMatchObject({ ok: true });
    expect(checkAnswer('address', 'Level 8, 45 Clarence St, Sydney, NSW 2000', au)).toMatchObject({ ok: true });
    // a US address for a Canadian brand, a Canadian one for an Australian brand, an Australian one for a US brand
    expect(checkAnswer('address', '1 Main St, Austin, TX 78701', ca).message).toBe(
      '"TX 78701" reads as a US state and ZIP code, but this brand is in Canada: write it as street, city, province code and postal code, e.g. 240 Richmond St W, Suite 410, Toronto, ON M5V 1V6',
    );
    expect(checkAnswer('address', '240 Richmond St W, Toronto, ON M5V 1V6', au).message).toBe(
      '"ON M5V 1V6" reads as a Canadian province and postal code, but this brand is in Australia: write it as street, suburb, state code and postcode, e.g. Level 8, 45 Clarence St, Sydney, NSW 2000',
    );
    expect(checkAnswer('address', '45 Clarence St, Sydney, NSW 2000').message).toBe(
      '"NSW 2000" reads as an Australian state and postcode, but this brand is in the United States: write it as street, city, state code and ZIP code, e.g. 1400 Lavaca St, Suite 310, Austin, TX 78701',
    );
    // a province that is none, and a postal code of another province than the one written
    expect(checkAnswer('address', '1 Main St, Toronto, ZZ M5V 1V6', ca).message).toMatch(/^province "ZZ" is not one of Canada's; use its code \(AB, BC, /);
    expect(checkAnswer('address', '1 Main St, Vancouver, BC M5V 1V6', ca).message).toBe(
      'postal code M5V 1V6 is in Ontario, not British Columbia; check the province or the postal code',
    );
    expect(checkAnswer('address', '1 George St, Melbourne, VIC 2000', au).message).toBe(
      'postcode 2000 is in New South Wales, not Victoria; check the state or the postcode',
    );
    // the country asked for by its name is offered as its code; title loans are refused abroad
    expect(checkAnswer('country', 'Canada').message).toBe('write the country as its code, CA');
    expect(checkAnswer('country', 'FR').message).toBe('use one of US, CA, AU (US for United States, CA for Canada, AU for Australia)');
    expect(checkAnswer('kind', 'title', ca).message).toBe('title loans are offered in the US only; choose another loan focus for a brand in Canada');
    expect(checkAnswer('phone', 'call us', au).message).toBe('"call us" is not a phone number; write one such as +61 2 5550 0148');
  });

  it.each([
    ['CA', '240 Richmond St W, Suite 410, Toronto, ON M5V 1V6', '+1-416-555-0187'],
    ['AU', 'Level 8, 45 Clarence St, Sydney, NSW 2000', '+61 2 5550 0148'],
  ])('makes a %s brand from the answers that the brand checks accept, as the studio saves it', (country, address, phone) => {
    const read = readAnswers({
      id: `wizard${country.toLowerCase()}`,
      name: 'Wizard Loans',
      country,
      primaryColor: '#0b5394',
      phone,
      email: 'help@wizardloans.com',
      address,
    });
    if ('problems' in read) throw new Error(JSON.stringify(read.problems));
    const document = newBrandDocument(read.answers);
    expect(document).toMatchObject({ country, config: { layout: 'logo-only' } });
    expect(checkBrandDocument(document.id, document, { production: false }).problems).toEqual([]);
  });
});
