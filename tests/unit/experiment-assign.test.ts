/**
 * Which variant a visitor sees (engine/site/experiments/assign.ts): the split follows the
 * weights, a visitor keeps their variant (also when the weights change), a stopped experiment
 * shows its winner to everyone, and the cookie says only what it must.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assignedIn, assignmentCookie, bucketOf, readAssignments, servingOf, variantByWeight, type LiveExperiment } from '../../engine/site/experiments/assign';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const experiment = (over: Partial<LiveExperiment> = {}): LiveExperiment => ({
  id: 'hero-headline',
  variants: [
    { id: 'control', weight: 50, changes: false },
    { id: 'short', weight: 30, changes: true },
    { id: 'long', weight: 20, changes: true },
  ],
  status: 'running',
  startMs: Date.parse('2026-11-01T00:00:00Z'),
  ...over,
});
const ids = (n: number) => Array.from({ length: n }, () => randomBytes(8).toString('hex'));

describe('assignment', () => {
  it('splits 100,000 new visitors within ±1 % of the weights', () => {
    const e = experiment();
    const counts = new Map<string, number>();
    for (const id of ids(100_000)) {
      const s = servingOf(e, undefined, id, NOW);
      counts.set(s.variant, (counts.get(s.variant) ?? 0) + 1);
    }
    expect((counts.get('control') ?? 0) / 100_000).toBeCloseTo(0.5, 1);
    for (const v of e.variants) expect(Math.abs((counts.get(v.id) ?? 0) / 100_000 - v.weight / 100)).toBeLessThan(0.01);
  });

  it('splits sequential ids (one digit apart) as evenly', () => {
    const e = experiment();
    const counts = new Map<string, number>();
    for (let i = 0; i < 100_000; i++) {
      const v = variantByWeight(bucketOf(i.toString(16).padStart(16, '0'), e.id), e.variants);
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    for (const v of e.variants) expect(Math.abs((counts.get(v.id) ?? 0) / 100_000 - v.weight / 100)).toBeLessThan(0.01);
  });

  it('gives the same visitor the same variant every time, and other experiments an independent split', () => {
    const [id] = ids(1);
    const first = servingOf(experiment(), undefined, id!, NOW).variant;
    for (let i = 0; i < 5; i++) expect(servingOf(experiment(), undefined, id!, NOW).variant).toBe(first);
    // the same visitors split anew by another experiment: not all in the same variant
    const other = experiment({ id: 'other-test' });
    const same = ids(2000).filter((v) => servingOf(experiment(), undefined, v, NOW).variant === servingOf(other, undefined, v, NOW).variant).length;
    expect(same / 2000).toBeGreaterThan(0.3);
    expect(same / 2000).toBeLessThan(0.45);
  });

  it('keeps an assigned visitor in their variant when the weights change mid-run', () => {
    const before = experiment();
    const after = experiment({
      variants: [
        { id: 'control', weight: 10, changes: false },
        { id: 'short', weight: 10, changes: true },
        { id: 'long', weight: 80, changes: true },
      ],
    });
    for (const id of ids(500)) {
      const assigned = servingOf(before, undefined, id, NOW);
      expect(assigned.assigned).toBe(true);
      const cookie = assignmentCookie(id, new Map(), before.id, assigned.variant, new Set([before.id]));
      const mine = readAssignments(cookie.split(';')[0]);
      expect(servingOf(after, mine!.chosen.get(after.id), mine!.visitor, NOW)).toEqual({ variant: assigned.variant, counted: true, assigned: false });
    }
    // new visitors follow the new weights
    const longShare = ids(5000).filter((id) => servingOf(after, undefined, id, NOW).variant === 'long').length / 5000;
    expect(longShare).toBeGreaterThan(0.75);
  });

  it('shows the winner to everyone once stopped, the cookie ignored and nothing counted', () => {
    const stopped = experiment({ status: 'stopped', winner: 'long' });
    expect(servingOf(stopped, 'short', ids(1)[0]!, NOW)).toEqual({ variant: 'long', counted: false, assigned: false });
    expect(servingOf(stopped, undefined, ids(1)[0]!, NOW)).toEqual({ variant: 'long', counted: false, assigned: false });
    expect(servingOf(experiment({ status: 'stopped' }), 'short', ids(1)[0]!, NOW).variant).toBe('control');
  });

  it('shows the control, counting nothing, while paused, before its start and from its end', () => {
    for (const e of [experiment({ status: 'paused' }), experiment({ startMs: NOW + 1 }), experiment({ endMs: NOW })])
      expect(servingOf(e, 'short', ids(1)[0]!, NOW)).toEqual({ variant: 'control', counted: false, assigned: false });
  });

  it('assigns anew a visitor whose cookie names a variant the experiment no longer has', () => {
    const s = servingOf(experiment(), 'removed', 'a'.repeat(16), NOW);
    expect(s.assigned).toBe(true);
    expect(['control', 'short', 'long']).toContain(s.variant);
  });
});

describe('the cookie', () => {
  it('keeps the visitor, their live experiments and this one; drops experiments that no longer exist', () => {
    const cookie = assignmentCookie(
      '0123456789abcdef',
      new Map([
        ['gone', 'b'],
        ['other', 'x'],
        ['hero-headline', 'long'],
      ]),
      'hero-headline',
      'short',
      new Set(['other', 'hero-headline']),
    );
    expect(cookie).toBe('lsx=0123456789abcdef|other:x|hero-headline:short; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly');
  });

  it('is read among other cookies, and a malformed one is no assignment', () => {
    const read = readAssignments('a=1; lsx=0123456789abcdef|hero-headline:short; b=2');
    expect(read?.visitor).toBe('0123456789abcdef');
    expect(read?.chosen.get('hero-headline')).toBe('short');
    expect(readAssignments('xlsx=0123456789abcdef|a:b')).toBeUndefined();
    expect(readAssignments('lsx=not-hex|a:b')).toBeUndefined();
    expect(readAssignments(undefined)).toBeUndefined();
  });

  it('gives one experiment’s variant as the front door reads it, the same as taken apart', () => {
    const header = 'a=1; lsx=0123456789abcdef|other:x|hero-headline:short; b=2';
    expect(assignedIn(header, 'hero-headline')).toBe('short');
    expect(assignedIn(header, 'other')).toBe('x');
    expect(assignedIn(header, 'hero')).toBeUndefined();
    expect(assignedIn('lsx=not-hex|hero-headline:short', 'hero-headline')).toBeUndefined();
    expect(assignedIn(undefined, 'hero-headline')).toBeUndefined();
  });

  it('reads an experiment named twice in the cookie as its first entry, both ways: the exposure counts the variant the page was served', () => {
    const header = 'lsx=0123456789abcdef|hero-headline:control|other:x|hero-headline:short';
    expect(assignedIn(header, 'hero-headline')).toBe('control');
    expect(readAssignments(header)?.chosen.get('hero-headline')).toBe('control');
  });
});
