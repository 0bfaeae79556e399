/**
 * The unit tests that share one process (tests/support/sharedFiles.ts): a file that leaves
 * something behind it — a server, a store, a child process, a patched library — or imports a
 * helper that does, gets a process of its own; a file of pure functions shares.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedTestFiles } from '../support/sharedFiles';

const root = mkdtempSync(join(tmpdir(), 'shared-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};

describe('which unit-test files share a process', () => {
  it('shares pure files and isolates those that start, open, spawn or patch something, directly or through a helper', () => {
    write(
      'tests/unit/pure.test.ts',
      "import { expect, it } from 'vitest';\nimport { sum } from '../../engine/sum';\nit('adds', () => expect(sum(1, 2)).toBe(3));\n",
    );
    write('tests/unit/nested/pure-too.test.ts', "import { it } from 'vitest';\nit('runs', () => {});\n");
    write('tests/unit/server.test.ts', "import { createServer } from 'node:http';\n");
    write('tests/unit/store.test.ts', "import { openStore } from '../../engine/store/db';\n");
    write('tests/unit/cli.test.ts', "import { spawnSync } from 'node:child_process';\n");
    write('tests/unit/env.test.ts', "process.env.DATABASE_URL = 'postgres://x';\n");
    write('tests/unit/timer.test.ts', 'setInterval(() => {}, 1000);\n');
    write('tests/unit/via-helper.test.ts', "import { startBuyer } from '../support/buyer';\n");
    write('tests/support/buyer.ts', "import { createServer } from 'node:http';\nexport const startBuyer = () => createServer();\n");
    write('tests/unit/pure-helper.test.ts', "import { sample } from '../support/samples';\n");
    write('tests/support/samples.ts', 'export const sample = 1;\n');
    write('tests/unit/missing-helper.test.ts', "import { gone } from '../support/gone';\n");
    write('tests/unit/notes.md', 'not a test\n');

    expect(sharedTestFiles(root)).toEqual(['tests/unit/nested/pure-too.test.ts', 'tests/unit/pure-helper.test.ts', 'tests/unit/pure.test.ts']);
  });

  it('on this repository: the store and cache tests are isolated, the pure ones share', () => {
    const shared = sharedTestFiles(process.cwd());
    expect(shared).toContain('tests/unit/brands.test.ts');
    for (const isolated of ['tests/unit/sqlite-prepared-statements.test.ts', 'tests/unit/page-cache-set.test.ts', 'tests/unit/console-user-cli.test.ts'])
      expect(shared).not.toContain(isolated);
  });
});
