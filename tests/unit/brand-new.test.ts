/**
 * npm run brand:new, run non-interactively into a temporary brands folder: the file it writes
 * is valid, and the new brand's home page renders on the server with its name in the <h1> and
 * the title. It refuses an existing id and invalid answers with a readable message.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { createEmbeddedSource, embeddedIndex } from '../../engine/content/embedded';
import { renderPage } from '../support/pageSamples';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'brand-new-'));
const dir = relative(root, join(work, 'brands'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const brandNew = (...args: string[]) => {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/brand-new.ts', '--yes', '--dir', dir, '--public-dir', relative(root, join(work, 'public')), ...args],
    { cwd: root, encoding: 'utf8' },
  );
  return { status: run.status, out: run.stdout, err: run.stderr };
};
const answers = (id: string, more: string[] = []) => [
  '--id',
  id,
  '--name',
  'Acme Loans',
  '--loan-focus',
  'general',
  '--hosts',
  `${id}.com,www.${id}.com`,
  '--primary-color',
  '#0b5394',
  '--phone',
  '+1-800-555-0100',
  '--email',
  `help@${id}.com`,
  '--address',
  '1 Main St, Suite 2, Austin, TX 78701',
  ...more,
];

describe('npm run brand:new', () => {
  it('writes a valid brand from the shared layouts, and its home page renders with the brand name', async () => {
    const run = brandNew(...answers('acmeloans'));
    expect(run.err).toBe('');
    expect(run.status).toBe(0);
    expect(run.out).toContain('http://acmeloans.localhost:3000/');
    const text = readFileSync(join(work, 'brands/acmeloans.json'), 'utf8');
    expect(text.startsWith('{\n  "$schema": ')).toBe(true);
    expect(existsSync(join(work, 'public/logos/acmeloans.svg'))).toBe(true);

    const sources = readSources({ extraDir: dir });
    const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
    expect(catalog.problems).toEqual([]);
    expect(catalog.hostMap.get('acmeloans.com')).toBe('acmeloans');
    const home = await renderPage(catalog, 'acmeloans', '/', createEmbeddedSource(embeddedIndex()));
    if (home === 'notFound') throw new Error('no home page');
    expect(home.status).toBe(200);
    expect(home.h1Count).toBe(1);
    expect(home.main).toMatch(/^Acme Loans: short-term loans/);
    expect(home.title).toContain('Acme Loans');
    for (const path of ['/apply', '/privacy', '/do-not-sell-or-share', '/payday-loans']) {
      expect(await renderPage(catalog, 'acmeloans', path, createEmbeddedSource(embeddedIndex())), path).not.toBe('notFound');
    }
  }, 60_000);

  it('writes a title brand whose apply page is /apply-title-loans, reading a state written as its name', () => {
    const args = answers('acmetitleco', ['--loan-focus', 'title']);
    args[args.indexOf('--address') + 1] = '1 Main St, Charleston, West Virginia 25301';
    expect(brandNew(...args).status).toBe(0);
    const brand = JSON.parse(readFileSync(join(work, 'brands/acmetitleco.json'), 'utf8')) as {
      apply: { path: string };
      loanTypes: string[];
      organization: { address: { addressRegion: string; addressLocality: string } };
    };
    expect(brand.apply.path).toBe('/apply-title-loans');
    expect(brand.loanTypes).toEqual(['title-loans']);
    expect(brand.organization.address).toMatchObject({ addressLocality: 'Charleston', addressRegion: 'WV' });
  }, 60_000);

  it('refuses an existing id', () => {
    const run = brandNew(...answers('ipaydayloans'));
    expect(run.status).toBe(1);
    expect(run.err).toContain('a brand with the id "ipaydayloans" already exists (brands/ipaydayloans.json)');
  }, 60_000);

  it('refuses invalid answers with the reason, and writes nothing', () => {
    const bad = [
      [['--email', 'nobody'], '--email "nobody": write a plain email address such as help@acmeloans.com'],
      [['--address', 'Austin'], '--address "Austin": write it as street, city, state code and ZIP code'],
      [['--address', '1 Main St, Austin, ZZ 78701'], '--address "1 Main St, Austin, ZZ 78701": state "ZZ": No state found!'],
      [['--address', '1 Main St, Austin, Atlantis 78701'], 'state "Atlantis": No abbreviation found with that state name'],
      [['--loan-focus', 'cars'], '--loan-focus "cars": use one of payday, bad-credit, installment, title, personal, general'],
      [['--primary-color', '#ffee00'], '--primary-color "#ffee00": white text on #ffee00 has a contrast of 1.2:1'],
      [['--hosts', 'ipaydayloans.com'], '/hosts/0: host "ipaydayloans.com" is also claimed by brands/ipaydayloans.json'],
    ] as const;
    for (const [args, message] of bad) {
      const run = brandNew(...answers('acmebad', [...args]));
      expect(run.status, args.join(' ')).toBe(1);
      expect(run.err).toContain(message);
    }
    expect(existsSync(join(work, 'brands/acmebad.json'))).toBe(false);
  }, 120_000);

  it('refuses an option it does not have, or one without its value, with the reason and the usage, not a stack trace', () => {
    for (const [args, message] of [
      [['--colour', 'red'], "Unknown option '--colour'"],
      [['--id'], "Option '--id <value>' argument missing"],
    ] as const) {
      const run = brandNew(...args);
      expect(run.status, args.join(' ')).toBe(1);
      expect(run.err).toContain(`brand:new: ${message}`);
      expect(run.err).toContain('usage: npm run brand:new');
      expect(run.err).not.toContain('    at ');
    }
    const help = brandNew('--help');
    expect(help.status).toBe(0);
    expect(help.out).toContain('npm run brand:new -- --yes --id …');
  }, 60_000);
});
