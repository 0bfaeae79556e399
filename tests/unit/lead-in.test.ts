/** Which hero only introduces the input below it (so that input is on a phone's first screen): engine/site/leadIn.ts. */
import { describe, expect, it } from 'vitest';
import { leadInFacts, leadInRoles } from '../../engine/site/leadIn';

/** what the opening rule sees of each block type, from its spec */
const b = leadInFacts;

describe('leadInRoles', () => {
  it.each([
    ['hero then an amount widget', [b('hero'), b('rangeSlider'), b('richText')], ['hero', 'input', undefined]],
    ['hero then the application form', [b('hero'), b('applyForm')], ['hero', 'input']],
    ['hero then text, the widget further down', [b('hero'), b('richText'), b('quickAmount')], [undefined, undefined, undefined]],
    ['no hero first', [b('richText'), b('getYourCash')], [undefined, undefined]],
    ['a hero alone', [b('hero')], [undefined]],
    ['nothing', [], []],
  ] as const)('%s', (_name, blocks, roles) => {
    expect(leadInRoles(blocks)).toEqual(roles);
  });
});
