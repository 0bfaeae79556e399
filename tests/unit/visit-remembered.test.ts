import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../engine/browser/tracking';
import { SOURCE_STORAGE_KEY } from '../../engine/browser/applySource';

/** A window with a real-behaving localStorage (a Map), its reads counted, and idle callbacks and listeners fired by the test. */
function fakeWindow(search: string, pathname: string) {
  const data = new Map<string, string>();
  const idle: (() => void)[] = [];
  const listeners = new Map<string, () => void>();
  let reads = 0;
  const localStorage = {
    getItem: (k: string) => (reads++, data.get(k) ?? null),
    setItem: (k: string, v: string) => void data.set(k, v),
  };
  const win = {
    location: { search, pathname },
    localStorage,
    requestIdleCallback: (run: () => void) => idle.push(run),
    cancelIdleCallback: () => {},
    setTimeout: () => 0,
    clearTimeout: () => {},
    addEventListener: (type: string, fn: () => void) => void listeners.set(type, fn),
    removeEventListener: (type: string) => void listeners.delete(type),
  };
  return { win, data, reads: () => reads, fireIdle: () => idle.splice(0).forEach((r) => r()), fire: (type: string) => listeners.get(type)?.() };
}

describe('the visit is stored after hydration, before anyone who needs it', () => {
  let tracking: typeof import('../../blocks/chrome/visitTracking');
  beforeEach(async () => {
    vi.resetModules();
    tracking = await import('../../blocks/chrome/visitTracking');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('touches no storage at mount; at idle it stores the visit, then the waiting widgets read this visit’s source', () => {
    const w = fakeWindow('?source1=spring', '/cash-advance');
    vi.stubGlobal('window', w.win);
    tracking.rememberVisitSoon();
    const seen: (string | null)[] = [];
    tracking.afterVisitRemembered(() => seen.push(w.win.localStorage.getItem(SOURCE_STORAGE_KEY)));
    expect(w.reads()).toBe(0);
    expect(w.data.size).toBe(0);
    w.fireIdle();
    expect(seen).toEqual(['spring']);
    expect(Object.fromEntries(w.data)).toEqual({ [STORAGE_KEYS.id]: 'spring', [STORAGE_KEYS.path]: '/cash-advance', [SOURCE_STORAGE_KEY]: 'spring' });
    // one who asks later gets it at once
    tracking.afterVisitRemembered(() => seen.push('later'));
    expect(seen).toEqual(['spring', 'later']);
  });

  it('a tap before idle stores it at the tap, once', () => {
    const w = fakeWindow('?source1=fall', '/');
    vi.stubGlobal('window', w.win);
    tracking.rememberVisitSoon();
    let runs = 0;
    tracking.afterVisitRemembered(() => runs++);
    w.fire('pointerdown');
    expect(runs).toBe(1);
    expect(w.data.get(SOURCE_STORAGE_KEY)).toBe('fall');
    w.data.clear();
    w.fireIdle();
    expect(runs).toBe(1);
    expect(w.data.size).toBe(0);
  });

  it('whoever needs the stored visit first (a form sent before idle) has it stored then, and the waiting ones run', () => {
    const w = fakeWindow('?utm_campaign=winter', '/apply');
    vi.stubGlobal('window', w.win);
    tracking.rememberVisitSoon();
    let runs = 0;
    tracking.afterVisitRemembered(() => runs++);
    tracking.rememberThisVisit();
    expect(runs).toBe(1);
    expect(w.data.get(STORAGE_KEYS.id)).toBe('winter');
  });

  it('a cancelled wait never runs', () => {
    const w = fakeWindow('', '/');
    vi.stubGlobal('window', w.win);
    tracking.rememberVisitSoon();
    let runs = 0;
    tracking.afterVisitRemembered(() => runs++)();
    w.fireIdle();
    expect(runs).toBe(0);
    expect(w.data.get(STORAGE_KEYS.path)).toBe('/');
  });
});
