/**
 * `process` in the browser. Next's polyfill module (next/dist/build/polyfills/process.js, what the
 * browser bundle's free `process` resolves to) falls back to next/dist/compiled/process where
 * there is no global process: the whole Node API emulated, nextTick queue included (~0.8 KiB
 * gzip on every page). next.config.ts puts this module in its place for the browser build only.
 * What the browser code reads of it: `process.env` (the build inlines every variable it names;
 * what is left reads as undefined, as with the polyfill's empty env) and React's
 * `process.emit("uncaughtException")`, only where there is no window. The rest of the surface is
 * kept as the polyfill's no-ops, for any library that probes it.
 */
const noop = () => undefined;

module.exports = {
  env: {},
  browser: true,
  title: 'browser',
  argv: [],
  version: '',
  versions: {},
  on: noop,
  once: noop,
  off: noop,
  addListener: noop,
  removeListener: noop,
  removeAllListeners: noop,
  emit: noop,
  listeners: () => [],
  cwd: () => '/',
  nextTick: (fn, ...args) => void setTimeout(() => fn(...args), 0),
};
