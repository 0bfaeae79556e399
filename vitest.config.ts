import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    // the catalog gets the block specs before any test asks for it, as server.mjs hands them at its start
    // the tests' own HTTP requests open a connection each (httpAgentSetup.ts), and the default store
    // is a SQLite file of the worker's in a folder of the run's (storeFileSetup.ts, storeFileGlobal.ts)
    globalSetup: ['tests/support/storeFileGlobal.ts'],
    setupFiles: ['tests/support/blockSpecsSetup.ts', 'tests/support/httpAgentSetup.ts', 'tests/support/storeFileSetup.ts'],
    // A loaded 2-core CI machine: room for the tests that walk every city.
    testTimeout: 20_000,
  },
});
