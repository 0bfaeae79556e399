/**
 * Lead ids sort in the order the leads were made, also within one millisecond: the duplicate check
 * tells two leads of the same contact made in the same instant apart by id, and the one stored
 * first must be the original.
 */
import { expect, it } from 'vitest';
import { newId } from '../../engine/store/leads';

it('ids made one after another sort in that order, many to a millisecond', () => {
  const ids = Array.from({ length: 2000 }, () => newId('ld'));
  expect([...ids].sort()).toEqual(ids);
  expect(new Set(ids).size).toBe(ids.length);
  // the buyers' return API and the lead tokens still take them, and the operators' tables show them whole (30 characters)
  for (const id of ids.slice(0, 5)) expect(id).toMatch(/^ld_[a-z0-9]{6,27}$/);
});
