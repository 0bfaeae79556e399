/**
 * One temporary folder per unit-test run for the default SQLite stores of storeFileSetup.ts,
 * removed when the run ends (the workers are started after this, with its environment).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'loansites-unit-stores-'));
  process.env.LOANSITES_UNIT_STORE_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
