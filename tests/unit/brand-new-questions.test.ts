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
import { checkAnswer, ORG_EMAIL_PATTERN, readAnswers } from '../../engine/site/brandQuestions';
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
});
