/**
 * `npm run validate` on experiments (engine/site/brandChecks/experiments.ts and the brand
 * schema): a variant that does not build, weights that do not add up, a route the brand does not
 * have — each refused with file:line:col at the experiment's pointer, the brand kept out.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const sources = readSources({ extraDir: '' });
const FILE = 'brands/ipaydayloans.json';
const DEMO = /"experiments": \[[\s\S]*?\n {2}\],/;

/** The payday brand's problems with its experiments replaced by these. */
function problemsWith(experiments: unknown[]): string[] {
  const brands = sources.brands.map((s) => {
    if (s.file !== FILE) return s;
    expect(s.text).toMatch(DEMO);
    return { ...s, text: s.text.replace(DEMO, `"experiments": ${JSON.stringify(experiments, null, 2).replace(/\n/g, '\n  ')},`) };
  });
  return buildCatalog(brands, sources.layouts, BLOCK_SPECS).problems.filter((p) => p.startsWith(FILE));
}

const experiment = (variants: unknown[], over: Record<string, unknown> = {}) => ({
  id: 'hero-test',
  routes: ['/payday-loans'],
  variants,
  start: '2026-11-01',
  status: 'running',
  ...over,
});
const control = { id: 'control', weight: 50 };

describe('experiments in the brand document', () => {
  it('accepts the demo experiment, and variants that change texts, the order or the layout', () => {
    expect(problemsWith([experiment([control, { id: 'b', weight: 50, texts: { '/blocks/0/heading': 'Other words' } }])])).toEqual([]);
    expect(problemsWith([experiment([control, { id: 'b', weight: 50, order: [0, 2, 1, 3, 4, 5, 6, 7, 8] }])])).toEqual([]);
    expect(problemsWith([experiment([control, { id: 'b', weight: 50, layout: 'cash-advance' }])])).toEqual([]);
  });

  it('accepts a variant that gives the route’s layout other parameters, and refuses one that names a parameter the layout does not have', () => {
    const routes = ['/personal-loans/location/{stateCode}'];
    expect(
      problemsWith([experiment([control, { id: 'b', weight: 50, layoutParams: { title: 'Personal Loans in {state.name}: A Short Guide' } }], { routes })]),
    ).toEqual([]);
    expect(problemsWith([experiment([control, { id: 'b', weight: 50, layoutParams: { noSuchParam: 'x' } }], { routes })])).toEqual([
      expect.stringMatching(
        /:\d+:\d+ \/experiments\/0\/variants\/1: variant "b" does not build on route "\/personal-loans\/location\/\{stateCode\}": .*noSuchParam/,
      ),
    ]);
  });

  it('refuses weights that do not add up to 100, at the variants', () => {
    expect(problemsWith([experiment([control, { id: 'b', weight: 40 }])])).toEqual([
      expect.stringMatching(/^brands\/ipaydayloans\.json:\d+:\d+ \/experiments\/0\/variants: the variants' weights add up to 90, not 100$/),
    ]);
  });

  it('refuses a bandit variant written at weight 0, at its weight: it would get no visitors, so the burn-in would never end', () => {
    const variants = [
      { id: 'control', weight: 0 },
      { id: 'b', weight: 50, texts: { '/blocks/0/heading': 'Other words' } },
      { id: 'c', weight: 50, texts: { '/blocks/0/heading': 'Yet other words' } },
    ];
    expect(problemsWith([experiment(variants, { allocation: 'bandit' })])).toEqual([
      expect.stringMatching(
        /^brands\/ipaydayloans\.json:\d+:\d+ \/experiments\/0\/variants\/0\/weight: a bandit's variants each need a weight above 0: .*"control" would never reach$/,
      ),
    ]);
    // without the bandit a variant may be written at 0 (it gets no new visitors)
    expect(problemsWith([experiment(variants)])).toEqual([]);
  });

  it('refuses an unknown layout, at the variant’s layout', () => {
    expect(problemsWith([experiment([control, { id: 'b', weight: 50, layout: 'no-such-layout' }])])).toEqual([
      expect.stringMatching(/:\d+:\d+ \/experiments\/0\/variants\/1\/layout: no layout named "no-such-layout"/),
    ]);
  });

  it('refuses a variant whose page links to a page that does not exist, at the variant', () => {
    const broken = { id: 'b', weight: 50, layout: 'ipd-by-state-payday', texts: { '/blocks/4/links/0/href': '/no-such-page' } };
    expect(problemsWith([experiment([control, broken])])).toEqual([
      expect.stringMatching(
        /:\d+:\d+ \/experiments\/0\/variants\/1: variant "b" does not build on route "\/payday-loans": link "\/no-such-page" goes to no page of this brand/,
      ),
    ]);
  });

  it('refuses texts that name no text of the layout and an order that leaves blocks out', () => {
    expect(problemsWith([experiment([control, { id: 'b', weight: 50, texts: { '/blocks/0/nothing': 'x' }, order: [0, 1] }])])).toEqual([
      expect.stringMatching(/\/experiments\/0\/variants\/1\/texts\/~1blocks~10~1nothing: "\/blocks\/0\/nothing" names no text/),
      expect.stringMatching(/\/experiments\/0\/variants\/1\/order: the order must name each of the layout's 9 blocks once/),
    ]);
  });

  it('refuses a route the brand does not have, a page in two experiments, a winner that is no variant and an end before the start', () => {
    const found = problemsWith([
      experiment([control, { id: 'b', weight: 50 }], { routes: ['/payday-loans', '/no-such-route'], status: 'stopped', winner: 'c', end: '2026-10-01' }),
      experiment([control, { id: 'b', weight: 50 }], { id: 'second' }),
    ]);
    expect(found).toEqual([
      expect.stringMatching(/\/experiments\/0\/routes\/1: "\/no-such-route" is no route of this brand/),
      expect.stringMatching(/\/experiments\/0\/winner: "c" is none of this experiment's variants/),
      expect.stringMatching(/\/experiments\/0\/end: the end must come after the start/),
      expect.stringMatching(/\/experiments\/1\/routes\/0: "\/payday-loans" is already in experiment "hero-test"/),
    ]);
  });

  it('refuses a start or end that is no real day or time, rather than running it from another day', () => {
    const found = problemsWith([experiment([control, { id: 'b', weight: 50 }], { start: '2026-02-30', end: '2026-04-31' })]);
    expect(found).toEqual([
      expect.stringMatching(/\/experiments\/0\/start: "2026-02-30" is not a real day or time/),
      expect.stringMatching(/\/experiments\/0\/end: "2026-04-31" is not a real day or time/),
    ]);
    expect(problemsWith([experiment([control, { id: 'b', weight: 50 }], { start: '2026-11-01T24:00Z' })])).toEqual([
      expect.stringMatching(/\/experiments\/0\/start: "2026-11-01T24:00Z" is not a real day or time/),
    ]);
    expect(problemsWith([experiment([control, { id: 'b', weight: 50 }], { start: '2026-02-28T23:59:59.999Z', end: '2026-12-31T09:30Z' })])).toEqual([]);
  });

  it('refuses by schema an experiment with one variant or an unknown status, at its pointer', () => {
    const found = problemsWith([experiment([{ id: 'control', weight: 100 }], { status: 'live' })]);
    expect(found.some((p) => /\/experiments\/0\/variants/.test(p))).toBe(true);
    expect(found.some((p) => /\/experiments\/0\/status/.test(p))).toBe(true);
  });
});
