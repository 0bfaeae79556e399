import { defineConfig } from 'vitest/config';
import { sharedTestFiles } from './tests/support/sharedFiles';

// the catalog gets the block specs before any test asks for it, as server.mjs hands them at its start
// the tests' own HTTP requests open a connection each (httpAgentSetup.ts), and the default store
// is a SQLite file of the worker's in a folder of the run's (storeFileSetup.ts, storeFileGlobal.ts)
const setupFiles = ['tests/support/blockSpecsSetup.ts', 'tests/support/httpAgentSetup.ts', 'tests/support/storeFileSetup.ts'];
// the files that leave nothing behind run in one process, the others in a process each (sharedFiles.ts)
const shared = sharedTestFiles(import.meta.dirname);

export default defineConfig({
  test: {
    environment: 'node',
    globalSetup: ['tests/support/storeFileGlobal.ts'],
    // A loaded 2-core CI machine: room for the tests that walk every city.
    testTimeout: 20_000,
    projects: [
      { extends: true, test: { name: 'isolated', include: ['tests/unit/**/*.test.ts'], exclude: shared, setupFiles } },
      {
        extends: true,
        test: { name: 'shared', include: shared, isolate: false, setupFiles: ['tests/support/sharedFileSetup.ts', ...setupFiles] },
      },
    ],
  },
});
