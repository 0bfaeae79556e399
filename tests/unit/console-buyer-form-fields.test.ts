import { describe, expect, it } from 'vitest';
import { changeOf, formValuesFrom } from '../../engine/console/buyerFormFields';

describe("the buyer form's numbers", () => {
  const change = (fields: Record<string, string>) => changeOf(formValuesFrom({ status: 'active', ...fields })).change;

  it.each([
    ['200', 200],
    ['0', 0],
    ['12.50', 12.5],
    ['-1', -1],
  ])('reads the cap %s as the number %s (the schema then says whether it may be)', (text, n) =>
    expect(change({ capsPerDay: text }).caps).toEqual({ perDay: n }),
  );

  it.each(['0x10', '1e3', '0b11', 'Infinity', '1_000'])('passes %s on as the text it is, so the schema refuses it, never as another number', (text) =>
    expect(change({ capsPerMonth: text, priceFixed: text })).toMatchObject({ caps: { perMonth: text }, price: { fixed: text } }),
  );
});
