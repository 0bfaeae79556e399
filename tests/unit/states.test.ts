import { describe, expect, it } from 'vitest';
import { abbreviationForStateName, FIFTY_STATES, STATE_NAME_RECORDS, stateByCode, stateBySlug, stateRowByAbbreviation, STATES } from '../../engine/states';
import { STATE_ROWS } from '../../engine/data/states';

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
    expect(STATE_NAME_RECORDS).toHaveLength(51);
    expect(STATE_NAME_RECORDS).toContainEqual({ allName: 'District Of Columbia', shortName: 'dc' });
  });
  it('the only-50 helper leaves out DC and the territories', () => {
    expect(FIFTY_STATES).toHaveLength(50);
    expect(FIFTY_STATES.map((s) => s.code)).not.toContain('dc');
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
