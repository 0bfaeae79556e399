/** Postal code → province or state, phone numbers and amounts per country (engine/browser/regions.ts), as tables. */
import { describe, expect, it } from 'vitest';
import {
  auStateOfPostcode,
  caProvinceOfPostalCode,
  formatAmount,
  formatPhone,
  normaliseCaPostalCode,
  normalisePhoneFor,
  normalisePostalCode,
  postalCodeAsTyped,
  type Country,
} from '../../engine/browser/regions';

describe('Canadian postal code → province or territory (the first letter; X by the whole FSA)', () => {
  const table: [string, string][] = [
    ['A1A 1A1', 'NL'],
    ['B3H 4R2', 'NS'],
    ['C1A 7N8', 'PE'],
    ['E1C 4M3', 'NB'],
    ['G1R 4P5', 'QC'],
    ['H2X 1Y4', 'QC'],
    ['J4K 1A1', 'QC'],
    ['K1A 0B1', 'ON'],
    ['L5B 3C2', 'ON'],
    ['M5V 2T6', 'ON'],
    ['N2L 3G1', 'ON'],
    ['P3E 2C6', 'ON'],
    ['R3C 4T3', 'MB'],
    ['S4P 3Y2', 'SK'],
    ['T2P 1J9', 'AB'],
    ['V6B 1A1', 'BC'],
    ['X0A 0H0', 'NU'],
    ['X0B 1J0', 'NU'],
    ['X0C 0A0', 'NU'],
    ['X0E 0P0', 'NT'],
    ['X0G 0A0', 'NT'],
    ['X1A 2P7', 'NT'],
    ['Y1A 2C6', 'YT'],
  ];
  it.each(table)('%s → %s', (code, province) => {
    expect(caProvinceOfPostalCode(code)?.code).toBe(province);
  });

  it('either case, with or without the space, spaces around', () => {
    for (const typed of ['M5V 2T6', 'm5v 2t6', 'M5V2T6', 'm5v2T6', '  M5V 2T6 ']) {
      expect(normaliseCaPostalCode(typed)).toBe('M5V 2T6');
      expect(caProvinceOfPostalCode(typed)?.name).toBe('Ontario');
    }
  });

  it.each(['D1A 1A1', 'F1A 1A1', 'I1A 1A1', 'O1A 1A1', 'Q1A 1A1', 'U1A 1A1', 'W1A 1A1', 'Z1A 1A1'])('%s: a letter no postal code starts with', (code) => {
    expect(caProvinceOfPostalCode(code)).toBeUndefined();
  });

  it.each(['X9Z 9Z9', 'X2A 1A1', 'M5V 2T', 'M5V-2T6', '12345', 'M5D 2T6', 'MMV 2T6', ''])('%s: not a postal code in use', (code) => {
    expect(caProvinceOfPostalCode(code)).toBeUndefined();
  });
});

describe('Australian postcode → state or territory (the ACT and NT carved out of the ranges)', () => {
  const table: [string, string | undefined][] = [
    ['0199', undefined],
    ['0200', 'ACT'],
    ['0299', 'ACT'],
    ['0300', undefined],
    ['0799', undefined],
    ['0800', 'NT'],
    ['0872', 'NT'],
    ['0999', 'NT'],
    ['1000', 'NSW'],
    ['2000', 'NSW'],
    ['2599', 'NSW'],
    ['2600', 'ACT'],
    ['2618', 'ACT'],
    ['2619', 'NSW'],
    ['2898', 'NSW'],
    ['2899', undefined],
    ['2900', 'ACT'],
    ['2920', 'ACT'],
    ['2921', 'NSW'],
    ['2999', 'NSW'],
    ['3000', 'VIC'],
    ['3999', 'VIC'],
    ['4000', 'QLD'],
    ['4999', 'QLD'],
    ['5000', 'SA'],
    ['5999', 'SA'],
    ['6000', 'WA'],
    ['6797', 'WA'],
    ['6798', undefined],
    ['6799', undefined],
    ['6800', 'WA'],
    ['6999', 'WA'],
    ['7000', 'TAS'],
    ['7999', 'TAS'],
    ['8000', 'VIC'],
    ['8999', 'VIC'],
    ['9000', 'QLD'],
    ['9999', 'QLD'],
  ];
  it.each(table)('%s → %s', (code, state) => {
    expect(auStateOfPostcode(code)?.code).toBe(state);
  });
  it.each(['200', '20000', '2OOO', 'abcd', ''])('%s: not a postcode', (code) => {
    expect(auStateOfPostcode(code)).toBeUndefined();
  });
});

describe('the postal code as each country writes it', () => {
  const table: [string, Country, string | undefined][] = [
    ['78701', 'US', '78701'],
    ['7870', 'US', undefined],
    ['m5v2t6', 'CA', 'M5V 2T6'],
    ['78701', 'CA', undefined],
    ['2000', 'AU', '2000'],
    ['20000', 'AU', undefined],
    ['M5V 2T6', 'AU', undefined],
  ];
  it.each(table)('%s in %s → %s', (typed, country, stored) => {
    expect(normalisePostalCode(typed, country)).toBe(stored);
  });
});

describe('the postal code field as typed or pasted: spaces around the code and a ZIP+4 dropped, anything else left to be pointed at', () => {
  const table: [string, Country, string][] = [
    [' 78701', 'US', '78701'],
    ['78701 ', 'US', '78701'],
    ['787 01', 'US', '78701'],
    ['78701-1234', 'US', '78701'],
    ['787011234', 'US', '78701'],
    ['787012', 'US', '787012'],
    [' m5v  2t6', 'CA', 'm5v 2t6'],
    ['M5V2T6', 'CA', 'M5V2T6'],
    [' 2000 ', 'AU', '2000'],
    ['0800', 'AU', '0800'],
  ];
  it.each(table)('%j in %s → %j', (typed, country, kept) => {
    expect(postalCodeAsTyped(typed, country)).toBe(kept);
  });
});

describe('phone numbers per country: what is accepted, what is stored, how it is written', () => {
  const table: [string, Country, string | undefined, string | undefined][] = [
    ['(512) 555-0123', 'US', '5125550123', '(512) 555-0123'],
    ['+1 512 555 0123', 'US', '5125550123', '(512) 555-0123'],
    ['512.555.0123', 'US', '5125550123', '(512) 555-0123'],
    ['112 555 0123', 'US', undefined, undefined],
    ['416-555-0187', 'CA', '4165550187', '416-555-0187'],
    ['+1 (416) 555-0187', 'CA', '4165550187', '416-555-0187'],
    ['1 416 555 0187', 'CA', '4165550187', '416-555-0187'],
    ['416 155 0187', 'CA', undefined, undefined],
    ['0412 345 678', 'AU', '0412345678', '0412 345 678'],
    ['+61 412 345 678', 'AU', '0412345678', '0412 345 678'],
    ['61412345678', 'AU', '0412345678', '0412 345 678'],
    // the trunk 0 kept after the country code, as Australians often write it
    ['+61 (0)412 345 678', 'AU', '0412345678', '0412 345 678'],
    ['+61 0412 345 678', 'AU', '0412345678', '0412 345 678'],
    ['+61 (0) 2 5550 0148', 'AU', undefined, undefined],
    ['(02) 5550 0148', 'AU', undefined, undefined],
    ['0412 345 67', 'AU', undefined, undefined],
    ['5125550123', 'AU', undefined, undefined],
    ['0412345678', 'US', undefined, undefined],
    ['call me', 'US', undefined, undefined],
    // digits of another script are the same digits, whole or mixed in
    ['٥١٢٥٥٥٠١٢٣', 'US', '5125550123', '(512) 555-0123'],
    ['(５１２) 555-0123', 'US', '5125550123', '(512) 555-0123'],
    ['+١ 512 ۵۵۵ 0123', 'US', '5125550123', '(512) 555-0123'],
    ['٠٤١٢ ٣٤٥ ٦٧٨', 'AU', '0412345678', '0412 345 678'],
    // a number sign that is not a decimal digit is not dropped: what is left would be another number
    ['512 555 012³', 'US', undefined, undefined],
  ];
  it.each(table)('%s in %s → %s, written %s', (typed, country, stored, written) => {
    expect(normalisePhoneFor(typed, country)).toBe(stored);
    if (stored) expect(formatPhone(stored, country)).toBe(written);
  });
});

describe('amounts per country, with the currency so a mixed listing is unambiguous', () => {
  it.each([
    [1500, 'US', '$1,500 USD'],
    [1500, 'CA', '$1,500 CAD'],
    [1500, 'AU', '$1,500 AUD'],
  ] as const)('%d in %s → %s', (amount, country, text) => {
    expect(formatAmount(amount, country)).toBe(text);
  });
});
