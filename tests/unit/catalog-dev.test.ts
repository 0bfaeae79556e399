/**
 * In development the catalog reloads when a brand file changes, and a brand broken while the
 * server runs is left out without taking the others down — against real files on disk.
 */
import { cpSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const root = mkdtempSync(join(tmpdir(), 'loansites-'));
mkdirSync(join(root, 'brands/layouts'), { recursive: true });
mkdirSync(join(root, 'data/generated'), { recursive: true });
cpSync(join(process.cwd(), 'data/generated/cities.json'), join(root, 'data/generated/cities.json'));
const acme = readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8');
writeFileSync(join(root, 'brands/acme.json'), acme);
writeFileSync(join(root, 'brands/beta.json'), acme.replace('"id": "acme"', '"id": "beta"').replaceAll('acmeloans.com', 'betaloans.com'));

describe('getCatalog in development', () => {
  vi.stubEnv('LOANSITES_ROOT', root);
  vi.stubEnv('NODE_ENV', 'development');
  afterAll(() => vi.unstubAllEnvs());

  it('reloads changed files and keeps the other brands when one breaks', async () => {
    const { getCatalog } = await import('../../engine/site/catalog');
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect([...getCatalog().brands.keys()].sort()).toEqual(['acme', 'beta']);

    writeFileSync(join(root, 'brands/beta.json'), '{ "id": "beta", "hosts": ["betaloans.com"], ');
    await new Promise((r) => setTimeout(r, 600));
    const catalog = getCatalog();
    expect([...catalog.brands.keys()]).toEqual(['acme']);
    expect(catalog.broken.has('beta')).toBe(true);
    // Its hosts cannot be read from a file that is not JSON, but beta.localhost still says what is wrong.
    expect(catalog.hostMap.get('beta.localhost')).toBe('beta');
    expect(catalog.hostMap.get('acme.localhost')).toBe('acme');
    expect(spy).toHaveBeenCalledWith(expect.stringMatching(/^\[brands\] brands\/beta\.json:1:\d+ \/: not valid JSON/));
    spy.mockRestore();
  });
});
