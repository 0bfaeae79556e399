/**
 * Debian's Chromium as every browser here launches it (the e2e suite, unit tests that need a
 * browser, the bench): no sandbox (root in CI), no GPU, and nothing that reaches the network on
 * its own (component updates, sync, background requests) — the machines reach only the npm and
 * Debian registries, and a background request would skew a measurement.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
