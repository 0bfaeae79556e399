/**
 * The build keeps libphonenumber (the brand telephone's reader, engine/site/brandPhone.ts, and the
 * lead screening's) out of every browser chunk and out of the front door: .next/front-door.mjs and
 * the brand page's server module, which the server loads as it starts, need none of its files. The
 * studio's wizard page, on the server, does: the check sees it there. The import-graph side of this
 * is tests/unit/brand-phone-boundary.test.ts; this reads what `npm run build` wrote.
 */
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const NEXT = join(process.cwd(), '.next');
/** What any libphonenumber code carries, minified or not: its metadata's property name, or its package name. */
const MARKS = ['country_calling_codes', 'libphonenumber'];
/** The package files Next traced for a server page: what that page's module loads. */
const traced = (page: string) => (JSON.parse(readFileSync(join(NEXT, 'server/pages', `${page}.js.nft.json`), 'utf8')) as { files: string[] }).files;
const phoneFiles = (files: string[]) => files.filter((f) => f.includes('/libphonenumber-js/'));

test('no browser chunk and nothing the front door starts with holds libphonenumber', () => {
  const chunks = readdirSync(join(NEXT, 'static'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
  expect(chunks.length).toBeGreaterThan(20);
  const holding = chunks.filter((f) => {
    const text = readFileSync(join(NEXT, 'static', f), 'utf8');
    return MARKS.some((m) => text.includes(m));
  });
  expect(holding).toEqual([]);

  const door = readFileSync(join(NEXT, 'front-door.mjs'), 'utf8');
  expect(door).toContain('getCatalog');
  for (const m of MARKS) expect(door.includes(m), `front-door.mjs names ${m}`).toBe(false);
  expect(phoneFiles(traced('_brand/[brand]/[[...path]]'))).toEqual([]);

  // where it belongs: the wizard's page reads the phone answer on the server
  expect(phoneFiles(traced('_console/studio/new'))).toContainEqual(expect.stringMatching(/libphonenumber-js\/max\//));
});
