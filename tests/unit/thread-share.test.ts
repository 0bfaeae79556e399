import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../scripts/bench/cpuTimeTrace';
import { byRole, longTaskWindows, overlap, samplesInWindows, threadCpuInWindows } from '../../scripts/bench/threadShare';

const MAIN = { pid: 1, tid: 10 };
const ev = (e: Partial<TraceEvent> & { name: string; ts: number }): TraceEvent => ({ ph: 'X', ...MAIN, ...e });
const meta = (name: 'process_name' | 'thread_name', pid: number, tid: number, value: string) =>
  ({ name, ph: 'M', ts: 0, pid, tid, args: { name: value } }) as unknown as TraceEvent;

/**
 * The page's main thread: a long task (100 ms wall, 20 ms CPU), a short one (5 ms), another long one (20 ms, all CPU).
 * Meanwhile a raster worker, the compositor of another process and a thread that only ran between the long tasks.
 */
function trace(): TraceEvent[] {
  return [
    meta('process_name', 1, 0, 'Renderer'),
    meta('thread_name', 1, 10, 'CrRendererMain'),
    meta('thread_name', 1, 11, 'CompositorTileWorker1'),
    meta('thread_name', 1, 12, 'CompositorTileWorker2'),
    meta('process_name', 2, 0, 'GPU Process'),
    meta('thread_name', 2, 20, 'VizCompositorThread'),
    ev({ name: 'ParseHTML', ts: 1_000, dur: 500, args: { beginData: { url: 'http://ipaydayloans.localhost/' } } }),
    ev({ name: 'RunTask', ts: 0, dur: 100_000, tdur: 20_000 }),
    ev({ name: 'Layout', ts: 10_000, dur: 50_000, tdur: 5_000 }),
    ev({ name: 'RunTask', ts: 150_000, dur: 5_000, tdur: 5_000 }),
    ev({ name: 'RunTask', ts: 200_000, dur: 20_000, tdur: 20_000 }),
    // a raster task wholly inside the first long task, with a nested slice that must not count twice
    ev({ name: 'TaskGraphRunner::RunTask', tid: 11, ts: 20_000, dur: 40_000, tdur: 30_000 }),
    ev({ name: 'RasterTask', tid: 11, ts: 21_000, dur: 30_000, tdur: 25_000 }),
    // another raster worker: half of its slice inside the second long task
    ev({ name: 'TaskGraphRunner::RunTask', tid: 12, ts: 210_000, dur: 20_000, tdur: 10_000 }),
    // the display compositor, inside the first long task
    ev({ name: 'ThreadControllerImpl::RunTask', pid: 2, tid: 20, ts: 50_000, dur: 10_000, tdur: 8_000 }),
    // a thread busy only between the long tasks: not listed
    ev({ name: 'ThreadControllerImpl::RunTask', pid: 2, tid: 21, ts: 120_000, dur: 20_000, tdur: 20_000 }),
  ];
}

describe('who runs while the main thread has long tasks', () => {
  it('takes the main thread tasks of 12.5 ms wall time or more as the windows', () => {
    expect(longTaskWindows(trace())).toEqual([
      [0, 100_000],
      [200_000, 220_000],
    ]);
    expect(longTaskWindows(trace(), 50)).toEqual([[0, 100_000]]);
    expect(longTaskWindows([ev({ name: 'RunTask', ts: 0, dur: 100_000 })])).toEqual([]);
  });

  it("counts a task recorded twice (RunTask around the scheduler's ThreadControllerImpl::RunTask) once", () => {
    const events = [...trace(), ev({ name: 'ThreadControllerImpl::RunTask', ts: 100, dur: 99_800, tdur: 19_900 })];
    expect(longTaskWindows(events)).toEqual([
      [0, 100_000],
      [200_000, 220_000],
    ]);
  });

  it('measures how much of a span lies inside the windows', () => {
    const windows: [number, number][] = [
      [0, 10],
      [20, 30],
    ];
    expect(overlap(5, 25, windows)).toBe(10);
    expect(overlap(10, 20, windows)).toBe(0);
    expect(overlap(-5, 100, windows)).toBe(20);
  });

  it("sums each thread's CPU inside the windows from its outermost slices, a straddling slice in proportion", () => {
    const events = trace();
    const shares = threadCpuInWindows(events, longTaskWindows(events));
    const of = (tid: number) => shares.find((s) => s.tid === tid);
    expect(of(10)).toMatchObject({ process: 'Renderer', thread: 'CrRendererMain', cpuMs: 40, wallMs: 120 });
    expect(of(11)).toMatchObject({ thread: 'CompositorTileWorker1', cpuMs: 30, wallMs: 40 });
    expect(of(12)).toMatchObject({ thread: 'CompositorTileWorker2', cpuMs: 5, wallMs: 10 });
    expect(of(20)).toMatchObject({ process: 'GPU Process', thread: 'VizCompositorThread', cpuMs: 8, wallMs: 10 });
    expect(of(21)).toBeUndefined();
    expect(shares.map((s) => s.tid)).toEqual([10, 11, 20, 12]);
  });

  it('groups numbered threads of one kind, and names the page main thread apart', () => {
    const events = trace();
    const roles = byRole(threadCpuInWindows(events, longTaskWindows(events)), MAIN);
    expect(roles).toEqual([
      ['page renderer: main thread', 40, 120],
      ['page renderer: CompositorTileWorker', 35, 50],
      ['GPU Process: VizCompositorThread', 8, 10],
    ]);
  });

  it("spreads each sampled interval's CPU evenly over it and keeps the part inside the windows", () => {
    const samples = [
      { at: 0, cpuMs: { machine: 0, server: 0 } },
      { at: 100_000, cpuMs: { machine: 100, server: 40 } },
      { at: 200_000, cpuMs: { machine: 300, server: 40 } },
    ];
    // half of the first interval and a quarter of the second
    expect(samplesInWindows(samples, [[50_000, 125_000]])).toEqual({ machine: 100, server: 20 });
    expect(samplesInWindows(samples, [])).toEqual({});
  });
});
