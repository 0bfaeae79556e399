/**
 * The overview's funnel table (blocks/console/charts.tsx funnelRows): each stage's share of the
 * stage before and of visits, and "—" where there is nothing to divide by — an empty range, or a
 * campaign that cost money and brought no visit — rather than 0 % or 100 %; and what each stage counts.
 */
import { describe, expect, it } from 'vitest';
import { funnelRows } from '../../blocks/console/charts';

const stages = (...counts: number[]) => ['visits', 'applyViews', 'step1', 'stored', 'sold'].map((stage, i) => ({ stage, count: counts[i]! }));

describe('the funnel table', () => {
  it('gives each stage its share of the stage before and of visits', () => {
    expect(funnelRows(stages(200, 50, 20, 10, 0))).toEqual([
      ['Visits', '200', '100%', '100%', 'visits'],
      ['Apply page views', '50', '25%', '25%', 'visits'],
      ['Form step 1', '20', '40%', '10%', 'visits'],
      ['Stored leads', '10', '50%', '5%', 'leads'],
      ['Sold', '0', '0%', '0%', 'leads'],
    ]);
  });

  it('says "—" where the stage before, or the visits, are none', () => {
    expect(funnelRows(stages(0, 0, 0, 0, 0)).map((r) => r.slice(2, 4))).toEqual(Array.from({ length: 5 }, () => ['—', '—']));
    // leads stored with no visit counted in the range (a lead's visit began the day before)
    expect(funnelRows(stages(0, 0, 0, 2, 1)).map((r) => r.slice(1, 4))).toEqual([
      ['0', '—', '—'],
      ['0', '—', '—'],
      ['0', '—', '—'],
      ['2', '—', '—'],
      ['1', '50%', '—'],
    ]);
  });
});
