/**
 * `npm run validate -- --production` and the build of a deployment: placeholders refused with
 * file:line:col, local validation and the local build unchanged.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { placeholderLogo } from '../../engine/site/brandScaffold';
import { isPlaceholderLogo, placeholdersInBrandText } from '../../engine/validate/placeholders';

const brandText = `{
  "id": "acme",
  "config": { "gtmId": "GTM-XXXXXXX", "tiktokPixelId": "CXXXXXXXXXXXXXXXXXXX", "mapKey": "pk.acme-public-token", "siteKey": "6Lc-acme-site-key" },
  "organization": {
    "telephone": "+1-512-555-0123",
    "email": "help@example.com"
  },
  "footer": { "about": "Call (800) 555-0199 or 02 5550 0148, or visit https://example.org/help." }
}`;

describe('placeholders in a brand file', () => {
  it('each one with its line, column and pointer', () => {
    const found = placeholdersInBrandText('brands/acme.json', brandText).map(
      (p) => `${p.file}:${p.position.line}:${p.position.column} ${p.pointer} ${p.message}`,
    );
    expect(found).toEqual([
      expect.stringMatching(/^brands\/acme\.json:3:25 \/config\/gtmId "GTM-XXXXXXX" is a placeholder tag-manager id/),
      expect.stringMatching(/^brands\/acme\.json:3:57 \/config\/tiktokPixelId "CXXXXXXXXXXXXXXXXXXX" is a placeholder pixel id/),
      expect.stringMatching(/^brands\/acme\.json:3:91 \/config\/mapKey "pk\.acme-public-token" is the scaffold's placeholder map token/),
      expect.stringMatching(/^brands\/acme\.json:3:126 \/config\/siteKey "6Lc-acme-site-key"/),
      expect.stringMatching(/^brands\/acme\.json:5:19 \/organization\/telephone "\+1-512-555-0123" is a fictional telephone number/),
      expect.stringMatching(/^brands\/acme\.json:6:15 \/organization\/email "help@example\.com" is a reserved example address/),
      expect.stringMatching(/^brands\/acme\.json:8:30 \/footer\/about "\(800\) 555-0199" is a fictional/),
      expect.stringMatching(/^brands\/acme\.json:8:48 \/footer\/about "02 5550 0148" is a fictional Australian telephone number/),
      expect.stringMatching(/^brands\/acme\.json:8:79 \/footer\/about "example\.org" is a reserved example address/),
    ]);
  });
  it('real-looking numbers, addresses and ids pass', () => {
    const text = '{ "telephone": "+1-512-555-0200", "t2": "(512) 301-0123", "email": "help@acmeloans.com", "gtmId": "GTM-W3LCA9N" }';
    expect(placeholdersInBrandText('brands/acme.json', text)).toEqual([]);
  });
  it('the scaffold logo and letter tiles are placeholders; a drawn logo is not', () => {
    expect(isPlaceholderLogo(placeholderLogo('Acme Loans', '#0b5394'))).toBe(true);
    expect(isPlaceholderLogo(readFileSync(join(process.cwd(), 'public/logos/weloans.svg'), 'utf8'))).toBe(true);
    expect(isPlaceholderLogo('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40"><path d="M0 0h10v10z"/></svg>')).toBe(false);
  });
});

describe('npm run validate', () => {
  const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/validate.ts', ...args], { encoding: 'utf8', timeout: 120_000 });
  it('locally the placeholders are kept; with --production each is refused at its file:line:col', () => {
    expect(run([]).status).toBe(0);
    const prod = run(['--production']);
    expect(prod.status).toBe(1);
    expect(prod.stderr).toMatch(/^brands\/weloans\.json:\d+:\d+ \/organization\/telephone: "\+1-416-555-0187" is a fictional telephone number/m);
    expect(prod.stderr).toMatch(/^brands\/weloans\.json:\d+:\d+ \/organization\/logo: public\/logos\/weloans\.svg is a placeholder logo/m);
    // Fast Loans Australia's licence statement carries all-zero numbers until the real ones are given.
    expect(prod.stderr).toMatch(
      /^brands\/fastloansau\.json:\d+:\d+ \/lending\/creditLicence: "Australian Credit Licence 000000" is a placeholder licence number/m,
    );
  }, 240_000);

  it('a mistyped option or a file name is refused before anything is checked, rather than passing without the check asked for', () => {
    const typo = run(['--prodution']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('validate: unknown option --prodution; nothing was checked.');
    expect(typo.stdout).not.toContain('valid');
    const named = run(['brands/acme.json']);
    expect(named.status).toBe(2);
    expect(named.stderr).toContain('validate: "brands/acme.json": validate checks every brand file at once and takes no file name');
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('usage: npm run validate');
  }, 120_000);
});

describe('Australian register numbers', () => {
  it('an all-zero ABN, credit licence or credit-representative number is a placeholder, at its column', () => {
    const text = `{ "creditLicence": "Acme Pty Ltd (ABN 00 000 000 000) is an authorised credit representative (number 000000) of Lender Pty Ltd, Australian Credit Licence 000000." }`;
    expect(placeholdersInBrandText('brands/au.json', text).map((p) => `${p.position.column} ${p.pointer} ${p.message}`)).toEqual([
      expect.stringMatching(/^39 \/creditLicence "ABN 00 000 000 000" is a placeholder Australian Business Number/),
      expect.stringMatching(/^102 \/creditLicence "credit representative 000000" is a placeholder credit-representative number/),
      expect.stringMatching(/^155 \/creditLicence "Australian Credit Licence 000000" is a placeholder licence number/),
    ]);
  });
  it('real-looking numbers pass', () => {
    const text = `{ "creditLicence": "Acme Pty Ltd (ABN 41 612 345 678) is an authorised credit representative (number 512345) of Lender Pty Ltd, Australian Credit Licence 412345." }`;
    expect(placeholdersInBrandText('brands/au.json', text)).toEqual([]);
  });
});

describe("the build's check in a deployment", () => {
  // The build's first step, as `npm run build` runs it, on a project root holding one brand.
  const buildCheck = (brandText: string, env: Record<string, string>) => {
    const root = mkdtempSync(join(tmpdir(), 'loansites-build-check-'));
    try {
      mkdirSync(join(root, 'brands'));
      cpSync(join(process.cwd(), 'brands/layouts'), join(root, 'brands/layouts'), { recursive: true });
      writeFileSync(join(root, 'brands/ipaydayloans.json'), brandText);
      const [cmd, ...args] = BUILD_CHECK.split(' ');
      return spawnSync('npx', [cmd!, ...args], {
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, LOANSITES_ROOT: root, LOANSITES_BUYERS_DIR: join(root, 'buyers'), LOANSITES_DEPLOYMENT: '', ...env },
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  const BUILD_CHECK = 'tsx scripts/validate.ts --allow-broken';
  const sample = readFileSync(join(process.cwd(), 'brands/ipaydayloans.json'), 'utf8');
  const real = sample
    .replace('+1-888-555-0142', '+1-888-301-0142')
    .replace(/"pk\.[^"]+"/, '"pk.eyJ1IjoiYWNtZSJ9.real"')
    .replace(/"6Lc-[^"]+"/, '"6LcR3alK3y"');

  it('is the first step of npm run build, and the Dockerfile builds as a deployment', () => {
    const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.build!.startsWith(`${BUILD_CHECK} && `)).toBe(true);
    const docker = readFileSync(join(process.cwd(), 'deploy/Dockerfile'), 'utf8');
    const buildStage = docker.slice(0, docker.indexOf('AS runtime'));
    expect(buildStage.indexOf('ARG LOANSITES_DEPLOYMENT=production')).toBeGreaterThan(-1);
    expect(buildStage.indexOf('ARG LOANSITES_DEPLOYMENT=production')).toBeLessThan(buildStage.indexOf('npm run build'));
  });

  it('a deployment stops on a placeholder with its file:line:col; locally the build goes on', () => {
    const deployed = buildCheck(sample, { LOANSITES_DEPLOYMENT: 'production' });
    expect(deployed.status).toBe(1);
    expect(deployed.stderr).toMatch(/^brands\/ipaydayloans\.json:30:\d+ \/organization\/telephone: "\+1-888-555-0142" is a fictional telephone number/m);
    expect(deployed.stderr).toMatch(/a deployment \(LOANSITES_DEPLOYMENT=production\) is not built with placeholders/);
    const local = buildCheck(sample, {});
    expect(local.status, local.stderr).toBe(0);
    expect(local.stderr).not.toMatch(/fictional/);
  }, 240_000);

  it('a deployment whose brand has its real values builds', () => {
    const deployed = buildCheck(real, { LOANSITES_DEPLOYMENT: 'production' });
    expect(deployed.stderr).not.toMatch(/placeholder|fictional/);
    expect(deployed.status, deployed.stderr).toBe(0);
  }, 240_000);
});
