import { describe, expect, it } from 'vitest';
import { mainThreadOf, toCpuTime, type TraceEvent } from '../../scripts/bench/cpuTimeTrace';

const PAGE = { pid: 1, tid: 10 };
const ev = (e: Partial<TraceEvent> & { name: string; ts: number }): TraceEvent => ({ ph: 'X', ...PAGE, ...e });

/** A page's main thread: a task that waited for a core (100 ms wall, 20 ms CPU) around a script, then a task that did not. */
function trace(): TraceEvent[] {
  return [
    ev({ name: 'ParseHTML', ts: 0, dur: 1000, args: { beginData: { url: 'http://ipaydayloans.localhost/' } } }),
    ev({ name: 'RunTask', ts: 10_000, dur: 100_000, tdur: 20_000 }),
    ev({ name: 'EvaluateScript', ts: 60_000, dur: 40_000, args: { data: { url: 'http://ipaydayloans.localhost/a.js' } } }),
    ev({ name: 'RunTask', ts: 200_000, dur: 30_000, tdur: 30_000 }),
    ev({ name: 'UpdateLayoutTree', ts: 205_000, dur: 10_000 }),
    // the browser's own page (about:blank) on another renderer: never touched
    ev({ name: 'RunTask', pid: 2, tid: 20, ts: 10_000, dur: 100_000, tdur: 1000 }),
  ];
}

describe('a Lighthouse trace on CPU time', () => {
  it('finds the main thread of the renderer that parsed the page', () => {
    expect(mainThreadOf(trace())).toEqual(PAGE);
    expect(mainThreadOf([ev({ name: 'ParseHTML', ts: 0, args: { beginData: { url: 'about:blank' } } })])).toBeUndefined();
  });

  it('shortens each task of the page to its CPU time, its inner events scaled with it, and nothing else', () => {
    const events = trace();
    const totals = toCpuTime(events);
    expect(totals).toEqual({ wallMs: 130, cpuMs: 50 });
    const [, waited, script, ran, layout, other] = events;
    expect(waited).toMatchObject({ ts: 10_000, dur: 20_000 });
    // 50 ms into a 100 ms task that had 20 ms of CPU: 10 ms in, 8 ms long — still inside its task, so Lantern links it the same way
    expect(script).toMatchObject({ ts: 20_000, dur: 8000 });
    expect(ran).toMatchObject({ ts: 200_000, dur: 30_000 });
    expect(layout).toMatchObject({ ts: 205_000, dur: 10_000 });
    expect(other).toMatchObject({ ts: 10_000, dur: 100_000 });
  });

  it('never lengthens a task whose thread time reads over its wall time (clock granularity)', () => {
    const events = [
      ev({ name: 'ParseHTML', ts: 0, dur: 10, args: { beginData: { url: 'http://x.localhost/' } } }),
      ev({ name: 'RunTask', ts: 100, dur: 1000, tdur: 1200 }),
    ];
    toCpuTime(events);
    expect(events[1]).toMatchObject({ dur: 1000 });
  });

  it('leaves a trace without a page of ours as it is', () => {
    const events = [ev({ name: 'RunTask', ts: 0, dur: 1000, tdur: 10 })];
    expect(toCpuTime(events)).toEqual({ wallMs: 0, cpuMs: 0 });
    expect(events[0]).toMatchObject({ dur: 1000 });
  });
});
