import { describe, expect, it } from 'vitest';
import { abbreviationForStateName, stateByCode, stateBySlug, stateRowByAbbreviation, STATES } from '../../engine/geo/states';
import { STATE_ROWS } from '../../engine/geo/stateData';

describe('state tables', () => {
  it('has 50 states, DC and 6 territories in the full table', () => {
    expect(STATE_ROWS).toHaveLength(57);
    expect(
      STATE_ROWS.filter((r) => r.kind === 'territory')
        .map((r) => r.usps)
        .sort(),
    ).toEqual(['AS', 'GU', 'MP', 'PR', 'UM', 'VI']);
  });
  it('has 51 allName/shortName records including District Of Columbia', () => {
    const records = STATES.map((s) => ({ allName: s.recordName, shortName: s.code }));
    expect(records).toHaveLength(51);
    expect(records).toContainEqual({ allName: 'District Of Columbia', shortName: 'dc' });
  });
  it('the only-50 list leaves out DC and the territories', () => {
    const fifty = STATE_ROWS.filter((r) => r.kind === 'state').map((r) => r.usps);
    expect(fifty).toHaveLength(50);
    expect(fifty).not.toContain('DC');
    expect(fifty.filter((u) => ['AS', 'GU', 'MP', 'PR', 'UM', 'VI'].includes(u))).toEqual([]);
  });
  it('slugs are lowercase hyphenated and unique', () => {
    expect(STATES.map((s) => s.slug)).toContain('district-of-columbia');
    expect(new Set(STATES.map((s) => s.slug)).size).toBe(51);
    for (const s of STATES) expect(s.slug).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });
  it('looks states up by slug and code', () => {
    expect(stateBySlug('new-york')?.code).toBe('ny');
    expect(stateByCode('TX')?.name).toBe('Texas');
    expect(stateBySlug('atlantis')).toBeUndefined();
  });
});

describe('lookup errors use the exact SPEC messages', () => {
  it('unknown abbreviation', () => {
    expect(stateRowByAbbreviation('pr').name).toBe('Puerto Rico');
    expect(() => stateRowByAbbreviation('ZZ')).toThrow(new Error('No state found!'));
  });
  it('unknown state name', () => {
    expect(abbreviationForStateName('west virginia')).toBe('WV');
    expect(() => abbreviationForStateName('Atlantis')).toThrow(new Error('No abbreviation found with that state name'));
  });
});
