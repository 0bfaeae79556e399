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

/** A brand in Canada and one in Australia, asked for as an operator answers them. */
const ABROAD = [
  {
    country: 'CA',
    id: 'acmecanada',
    phone: '+1-416-555-0187',
    address: '240 Richmond St W, Suite 410, Toronto, ON m5v1v6',
    expected: { locale: 'en-CA', currency: 'CAD', address: { addressLocality: 'Toronto', addressRegion: 'ON', postalCode: 'M5V 1V6', addressCountry: 'CA' } },
    // what a Canadian borrower reads on the brand's own pages: the country's privacy law, its provinces, its postal code
    privacy: 'Personal Information Protection and Electronic Documents Act (PIPEDA)',
    footer: 'Our service may not be available in every province or territory.',
    apply: 'Postal code',
  },
  {
    country: 'AU',
    id: 'acmeaustralia',
    phone: '+61 2 5550 0148',
    address: 'Level 8, 45 Clarence St, Sydney, New South Wales 2000',
    expected: { locale: 'en-AU', currency: 'AUD', address: { addressLocality: 'Sydney', addressRegion: 'NSW', postalCode: '2000', addressCountry: 'AU' } },
    privacy: 'Privacy Act 1988',
    footer: 'Lenders in our network must hold an Australian Credit Licence',
    apply: 'Postcode',
  },
] as const;

describe('npm run brand:new for Canada and Australia', () => {
  it.each(ABROAD)(
    'writes a valid $country brand with its locale, currency, address, legal pages and disclaimers, and its pages render',
    async (c) => {
      const args = answers(c.id, ['--country', c.country]);
      args[args.indexOf('--phone') + 1] = c.phone;
      args[args.indexOf('--address') + 1] = c.address;
      const run = brandNew(...args);
      expect(run.err).toBe('');
      expect(run.status).toBe(0);
      const brand = JSON.parse(readFileSync(join(work, `brands/${c.id}.json`), 'utf8')) as Record<string, unknown>;
      expect(brand).toMatchObject({
        country: c.country,
        locale: c.expected.locale,
        currency: c.expected.currency,
        organization: { address: c.expected.address },
      });

      // the same checks as npm run validate, among every brand
      const sources = readSources({ extraDir: dir });
      const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
      expect(catalog.problems).toEqual([]);
      const source = createEmbeddedSource(embeddedIndex());
      const page = async (path: string) => {
        const p = await renderPage(catalog, c.id, path, source);
        if (p === 'notFound') throw new Error(`${c.id}${path}: not found`);
        expect(p.status, path).toBe(200);
        expect(p.h1Count, path).toBe(1);
        return p;
      };
      const home = await page('/');
      expect(home.chrome).toContain(c.footer);
      expect(home.chrome).not.toMatch(/\bstates?\b.*\bZIP\b|Service is not available in Arkansas/);
      expect((await page('/privacy')).main).toContain(c.privacy);
      expect((await page('/apply')).main).toContain(c.apply);
      for (const path of ['/payday-loans', '/how-it-works', '/faqs', '/contact', '/terms']) expect((await page(path)).main).toContain('Acme Loans');
      // the US-only California privacy page is not made for a brand abroad
      expect(await renderPage(catalog, c.id, '/do-not-sell-or-share', source)).toBe('notFound');
    },
    90_000,
  );

  it('refuses an address of another country, and title loans abroad, in words an operator understands', () => {
    const ca = brandNew(...answers('acmewrongca', ['--country', 'CA']));
    expect(ca.status).toBe(1);
    expect(ca.err).toContain(
      '"TX 78701" reads as a US state and ZIP code, but this brand is in Canada: write it as street, city, province code and postal code, e.g. 240 Richmond St W, Suite 410, Toronto, ON M5V 1V6',
    );
    const title = brandNew(...answers('acmetitleau', ['--country', 'AU', '--loan-focus', 'title', '--address', 'Level 8, 45 Clarence St, Sydney, NSW 2000']));
    expect(title.status).toBe(1);
    expect(title.err).toContain('--loan-focus "title": title loans are offered in the US only; choose another loan focus for a brand in Australia');
    expect(existsSync(join(work, 'brands/acmewrongca.json'))).toBe(false);
    expect(existsSync(join(work, 'brands/acmetitleau.json'))).toBe(false);
  }, 60_000);
});
