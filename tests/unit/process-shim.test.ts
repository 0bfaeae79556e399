import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/** The browser's `process` (blocks/chrome/processShim.cjs, aliased in next.config.ts for the browser build). */
const shim = createRequire(import.meta.url)('../../blocks/chrome/processShim.cjs') as {
  env: Record<string, string | undefined>;
  browser: boolean;
  emit: (...args: unknown[]) => unknown;
  on: (...args: unknown[]) => unknown;
  listeners: (name: string) => unknown[];
  cwd: () => string;
  nextTick: (fn: (...args: unknown[]) => void, ...args: unknown[]) => void;
};

describe('the browser’s process (blocks/chrome/processShim.cjs)', () => {
  it('has what browser code reads of Node’s: an empty env, browser, no-op events (React’s emit where there is no window), cwd', () => {
    expect(shim.env).toEqual({});
    expect(shim.env.NODE_DEBUG).toBeUndefined();
    expect(shim.browser).toBe(true);
    expect(shim.emit('uncaughtException', new Error('x'))).toBeUndefined();
    expect(shim.on('exit', () => undefined)).toBeUndefined();
    expect(shim.listeners('exit')).toEqual([]);
    expect(shim.cwd()).toBe('/');
  });

  it('nextTick runs each callback later, in order, with its arguments', async () => {
    const calls: unknown[][] = [];
    shim.nextTick((...args) => calls.push(args), 1, 'a');
    shim.nextTick((...args) => calls.push(args));
    expect(calls).toEqual([]);
    await expect.poll(() => calls).toEqual([[1, 'a'], []]);
  });
});
