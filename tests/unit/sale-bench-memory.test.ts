/**
 * The sale bench's memory row holds the working set to the process's idle RSS + 64 MB after every
 * sale of the run: RSS that rises by a few MB and holds passes; RSS that climbs to a plateau far
 * above idle fails (the allocator keeping what a peak touched), as does growth on every burst and
 * a heap that grows at all.
 */
import { describe, expect, it } from 'vitest';
import { memoryRow, type MemorySnapshot } from '../../scripts/bench/saleMemory';

const MB = 1024 * 1024;
const at = (rssMb: number, heapMb = 30): MemorySnapshot => ({ rss: rssMb * MB, heapUsed: heapMb * MB, external: 6.6 * MB, arrayBuffers: 2.4 * MB });

describe('the sale bench memory row', () => {
  it.each([
    { case: 'a working set within idle + 64 MB', idle: at(120), bursts: [at(170), at(178), at(180)], ok: true },
    { case: 'a plateau 370 MB over idle', idle: at(339), bursts: [at(600), at(700), at(709)], ok: false },
    { case: 'growth on every burst (a leak)', idle: at(120), bursts: [at(140), at(160), at(190)], ok: false },
    { case: 'a flat RSS but a growing heap', idle: at(120, 30), bursts: [at(121, 40), at(122, 50)], ok: false },
  ])('$case → ok $ok', ({ idle, bursts, ok }) => {
    expect(memoryRow(idle, bursts, 2000, 6420).ok).toBe(ok);
  });

  it('prints RSS over idle after every sale, the growth of each burst, and heap, external and Buffers', () => {
    const row = memoryRow(at(120), [at(170), at(172), at(173)], 2000, 6420);
    expect(row.figure).toBe("sale working set: RSS after 6,420 sales over the selling process's idle RSS (heap after GC)");
    expect(row.measured).toContain('RSS 120 → 173 MB (+53.0); per burst of 2,000 +50.0, +2.0, +1.0');
    expect(row.measured).toMatch(/heap 30\.0 → 30\.0 MB \(\+0\.0\); external 6\.6 → 6\.6 MB \(\+0\.0\); Buffers 2\.4 → 2\.4 MB \(\+0\.0\)/);
    expect(row.budget).toBe('RSS ≤ idle + 64 MB, heap < idle + 16 MB');
  });

  it('prints what the last burst left committed before the heap-shrinking GC, beside the budgeted figure', () => {
    const row = memoryRow(at(120), [at(170), { ...at(173), committedRss: 330 * MB }], 2000, 4420);
    expect(row.measured).toContain('330 MB before the heap-shrinking GC');
    expect(row.ok).toBe(true);
  });

  it('refuses fewer than two bursts: one burst cannot tell a leak from a plateau', () => {
    expect(() => memoryRow(at(120), [at(170)], 2000, 2420)).toThrow(/at least two bursts/);
  });
});
