/**
 * The sale bench's memory row tells a leak from a plateau: RSS that rises once on the first burst
 * (the working set) and then holds passes; RSS that grows on every burst fails, as does a heap that
 * grows at all.
 */
import { describe, expect, it } from 'vitest';
import { memoryRow, type MemorySnapshot } from '../../scripts/bench/saleMemory';

const MB = 1024 * 1024;
const at = (rssMb: number, heapMb = 30): MemorySnapshot => ({ rss: rssMb * MB, heapUsed: heapMb * MB, external: 6.6 * MB, arrayBuffers: 2.4 * MB });

describe('the sale bench memory row', () => {
  it.each([
    { case: 'a large first burst, then a plateau', snaps: [at(339), at(576), at(578), at(579)], ok: true },
    { case: 'a plateau reached on the second burst', snaps: [at(339), at(431), at(500), at(505)], ok: true },
    { case: 'growth on every burst (a leak)', snaps: [at(339), at(431), at(523), at(615)], ok: false },
    { case: 'a flat RSS but a growing heap', snaps: [at(339, 30), at(340, 40), at(341, 50)], ok: false },
  ])('$case → ok $ok', ({ snaps, ok }) => {
    expect(memoryRow(snaps, 2000).ok).toBe(ok);
  });

  it('prints the growth of every burst, the last per sale, and heap, external and Buffers', () => {
    const row = memoryRow([at(339), at(431), at(433), at(434)], 2000);
    expect(row.measured).toContain('RSS 339 → 434 MB: +92.0, +2.0, +1.0 per burst (last 0.5 KB a sale)');
    expect(row.measured).toMatch(/heap 30\.0 → 30\.0 MB \(\+0\.0\); external 6\.6 → 6\.6 MB \(\+0\.0\); Buffers 2\.4 → 2\.4 MB \(\+0\.0\)/);
    expect(row.figure).toBe('memory over 3 bursts of 2,000 sales (RSS growth per burst; heap after GC)');
  });

  it('refuses fewer than two bursts: one burst cannot tell a leak from a plateau', () => {
    expect(() => memoryRow([at(339), at(431)], 2000)).toThrow(/at least two bursts/);
  });
});
