/** `npm run validate -- --production`: placeholders refused with file:line:col, local validation unchanged. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { placeholderLogo } from '../../scripts/brandScaffold';
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
  const run = (args: string[]) => spawnSync('npx', ['tsx', 'scripts/validate.ts', ...args], { encoding: 'utf8', timeout: 120_000 });
  it('locally the placeholders are kept; with --production each is refused at its file:line:col', () => {
    expect(run([]).status).toBe(0);
    const prod = run(['--production']);
    expect(prod.status).toBe(1);
    expect(prod.stderr).toMatch(/^brands\/weloans\.json:\d+:\d+ \/organization\/telephone: "\+1-416-555-0187" is a fictional telephone number/m);
    expect(prod.stderr).toMatch(/^brands\/weloans\.json:\d+:\d+ \/organization\/logo: public\/logos\/weloans\.svg is a placeholder logo/m);
  }, 240_000);
});
