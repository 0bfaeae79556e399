/**
 * A first visit to a page under an experiment, as the front door answers it on its fast path
 * (engine/frontDoor/experiment.ts, engine/site/experiments/assign.ts): for a given visitor id the
 * variant and the Set-Cookie are exactly what they were when the id was first hashed (the numbers
 * and texts here were computed then), so a visitor assigned before a change keeps their variant,
 * and their browser keeps the cookie with the same attributes. The ids a server draws are 16 hex
 * digits, never the same twice.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { decide, type Door } from '../../engine/frontDoor/frontDoor';
import { experimentDoor } from '../support/experimentDoor';
import { newVisitorId } from '../../engine/frontDoor/experiment';
import { bucketOf } from '../../engine/site/experiments/assign';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const sources = readSources({ extraDir: '' });
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
const EXPERIMENT = 'payday-hero-headline';

/** A door that gives each first visitor the next of `ids`. */
const doorWith = (ids: string[]): Door => experimentDoor(catalog, () => ids.shift()!);

describe('a first visit under an experiment', () => {
  it('gives a visitor id the variant and the exact Set-Cookie it always had', () => {
    const cases = [
      ['0000000000000000', 'cash-before-payday'],
      ['0000000000000004', 'control'],
      ['0123456789abcdef', 'cash-before-payday'],
      ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'control'],
    ] as const;
    const door = doorWith(cases.map(([id]) => id));
    for (const [id, variant] of cases) {
      const d = decide({ method: 'GET', target: '/payday-loans', host: 'ipaydayloans.localhost' }, door);
      if (d.kind !== 'page' || !d.experiment) throw new Error(`no variant for ${id}`);
      const setCookie = `lsx=${id}|${EXPERIMENT}:${variant}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly`;
      expect(d.experiment).toMatchObject({ id: EXPERIMENT, variant, counted: true, setCookie });
      const variantHeaders = ['X-Loansites-Experiment', `${EXPERIMENT}=${variant}`, 'Cache-Control', 'private, no-cache'];
      expect(d.experiment.headers).toEqual([...variantHeaders, 'Set-Cookie', setCookie]);
      // the cookie is this visitor's own: the variant's shared decision carries none
      expect(d.experiment.sameAs).toMatchObject({ experiment: { variant, headers: variantHeaders } });
      expect((d.experiment.sameAs as { experiment: { setCookie?: string } }).experiment.setCookie).toBeUndefined();
    }
  });

  it('hashes a visitor and an experiment to the numbers it always did, whichever experiment was hashed before', () => {
    const known: [string, string, number][] = [
      ['0000000000000000', EXPERIMENT, 0.8180442498996854],
      ['0000000000000004', EXPERIMENT, 0.07449973374605179],
      ['0000000000000000', 'hero-headline', 0.8819454545155168],
      ['0123456789abcdef', 'hero-headline', 0.875435417285189],
      ['0123456789abcdef', EXPERIMENT, 0.9143744972534478],
      ['fedcba9876543210', '', 0.30805838387459517],
      ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'hero-headline', 0.46979131479747593],
      ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', EXPERIMENT, 0.3837099855300039],
    ];
    for (const [visitor, experiment, bucket] of [...known, ...known.toReversed()]) expect(bucketOf(visitor, experiment)).toBe(bucket);
  });

  it('draws visitor ids of 16 hex digits, none twice, across refills of its pool', () => {
    const ids = Array.from({ length: 2000 }, () => newVisitorId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
