import { describe, expect, it } from 'vitest';
import { FIRST_INPUT_EVENTS, whenIdle, whenIdleOrFirstInput, type DeferralHost } from '../../blocks/chrome/deferral';

/** A window stand-in: idle callbacks, timers and listeners are recorded and fired by the test. */
function fakeHost(withIdle = true) {
  const idle = new Map<number, { run: () => void; timeout: number }>();
  const timers = new Map<number, () => void>();
  const listeners = new Map<string, Set<() => void>>();
  let next = 1;
  const host: DeferralHost = {
    setTimeout: (run) => (timers.set(next, run), next++),
    clearTimeout: (h) => void timers.delete(h),
    addEventListener: (type, fn, opts) => {
      expect(opts).toMatchObject({ capture: true, passive: true });
      (listeners.get(type) ?? listeners.set(type, new Set()).get(type)!).add(fn);
    },
    removeEventListener: (type, fn) => void listeners.get(type)?.delete(fn),
    ...(withIdle
      ? {
          requestIdleCallback: (run: () => void, opts: { timeout: number }) => (idle.set(next, { run, timeout: opts.timeout }), next++),
          cancelIdleCallback: (h: number) => void idle.delete(h),
        }
      : {}),
  };
  return {
    host,
    idle,
    timers,
    fireIdle: () => [...idle.values()].forEach((c) => c.run()),
    fire: (type: string) => [...(listeners.get(type) ?? [])].forEach((fn) => fn()),
    listening: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
  };
}

describe('whenIdle', () => {
  it('asks for an idle callback with the timeout, and cancels it', () => {
    const f = fakeHost();
    let runs = 0;
    const cancel = whenIdle(() => runs++, f.host, 3000);
    expect([...f.idle.values()].map((c) => c.timeout)).toEqual([3000]);
    cancel();
    expect(f.idle.size).toBe(0);
    expect(runs).toBe(0);
  });

  it('falls back to a timer where requestIdleCallback is missing', () => {
    const f = fakeHost(false);
    let runs = 0;
    whenIdle(() => runs++, f.host);
    expect(f.timers.size).toBe(1);
    [...f.timers.values()][0]!();
    expect(runs).toBe(1);
  });
});

describe('whenIdleOrFirstInput', () => {
  const cases: { name: string; first: string | 'idle'; then: string | 'idle' }[] = [
    { name: 'idle first, then a tap', first: 'idle', then: 'pointerdown' },
    { name: 'a tap before idle', first: 'pointerdown', then: 'idle' },
    { name: 'a touch before idle', first: 'touchstart', then: 'idle' },
    { name: 'a key before idle', first: 'keydown', then: 'idle' },
    { name: 'focus before idle', first: 'focusin', then: 'keydown' },
  ];
  for (const c of cases) {
    it(`runs once: ${c.name}`, () => {
      const f = fakeHost();
      let runs = 0;
      whenIdleOrFirstInput(() => runs++, f.host);
      expect(runs).toBe(0);
      for (const step of [c.first, c.then]) {
        if (step === 'idle') f.fireIdle();
        else f.fire(step);
        expect(runs).toBe(1);
      }
      // nothing is left listening or waiting once it has run
      expect(f.listening()).toBe(0);
      expect(f.idle.size).toBe(0);
    });
  }

  it('listens for every first-input event in the capture phase until it runs', () => {
    const f = fakeHost();
    whenIdleOrFirstInput(() => {}, f.host);
    expect(f.listening()).toBe(FIRST_INPUT_EVENTS.length);
  });

  it('never runs once cancelled', () => {
    const f = fakeHost();
    let runs = 0;
    const cancel = whenIdleOrFirstInput(() => runs++, f.host);
    cancel();
    f.fire('pointerdown');
    f.fireIdle();
    expect(runs).toBe(0);
    expect(f.listening()).toBe(0);
  });
});
