/**
 * How much brand JSON there is: shared layouts plus every brand's own, and the lines of
 * brands/*.json, brands/layouts/*.json and brands/parts/*.json
 * (`cat brands/*.json brands/layouts/*.json brands/parts/*.json | wc -l`).
 * Near-copy layouts are folded into shared ones with parameters (engine/site/layoutParams.ts: text,
 * and switches for blocks only some pages show), and
 * repeated link lists (a brand's own, or a shared part several brands name), blocks several
 * layouts show and routes several brands list (block and route parts, engine/site/sharedParts.ts)
 * and content routes are written once (engine/site/brandExpand.ts); these
 * ceilings keep a copy from creeping back unnoticed. Folding more lowers them; a page that
 * needs more raises them deliberately in the same commit (the aim of 140 layouts and 14,500
 * lines is met). They count the twelve brands measured when they were set: an operator who adds a brand
 * file must not be stopped by a limit written before it existed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const MAX_LAYOUTS = 140;
// +6: the title ad page opens on its amount (the slider block in layouts/title-loans.json).
// +15: the payday brand's demo experiment (two hero headlines on /payday-loans, brands/ipaydayloans.json).
// +4: the canonical addresses of routes that show another route's pages (ustitleloans, cocoloan).
// +38: the Canadian and Australian pages a new brand of those countries starts from (brands/layouts/*-ca.json,
// *-au.json and the route parts loan-pages-ca and loan-pages-au, into which weloans' and fastloansau's own copies
// are folded): each file's "$schema" and description lines, and the switch for the homes' links.
const MAX_LINES = 14_376;

const MEASURED_BRANDS = [
  'cocoloan',
  'fastloansau',
  'fasttitle',
  'honestloans',
  'ipaydayloans',
  'onlineloans',
  'personalloans',
  'unityloan',
  'usbadcreditloans',
  'usinstallmentloans',
  'ustitleloans',
  'weloans',
];

const dir = join(process.cwd(), 'brands');
const jsonIn = (d: string, keep: (file: string) => boolean = () => true) =>
  readdirSync(d)
    .filter((f) => f.endsWith('.json') && keep(f))
    .map((f) => readFileSync(join(d, f), 'utf8'));
const brandTexts = jsonIn(dir, (f) => MEASURED_BRANDS.includes(f.replace(/\.json$/, '')));
const layoutTexts = jsonIn(join(dir, 'layouts'));
const partTexts = jsonIn(join(dir, 'parts'));
const lines = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('the size of the brand files', () => {
  it(`has at most ${MAX_LAYOUTS} layouts, shared and brand-owned together`, () => {
    const own = brandTexts.reduce((n, t) => n + Object.keys((JSON.parse(t) as { layouts?: object }).layouts ?? {}).length, 0);
    expect(layoutTexts.length + own).toBeLessThanOrEqual(MAX_LAYOUTS);
  });

  it(`has at most ${MAX_LINES} lines of brand, layout and shared-part JSON`, () => {
    expect([...brandTexts, ...layoutTexts, ...partTexts].reduce((n, t) => n + lines(t), 0)).toBeLessThanOrEqual(MAX_LINES);
  });
});
