/**
 * Before each file of the shared process (sharedFiles.ts): the environment as the run started it
 * (a file that sets or deletes a variable does so for itself only) and fresh modules of our own,
 * so that a file finds the catalog, caches and counters as a process of its own would. Libraries
 * in node_modules stay loaded: keeping them is what the shared process is for. Listed first: the
 * setup files after it import the catalog afresh.
 */
import { vi } from 'vitest';

const kept = globalThis as { __unitRunEnv?: Record<string, string | undefined> };
if (!kept.__unitRunEnv) kept.__unitRunEnv = { ...process.env };
else {
  const start = kept.__unitRunEnv;
  for (const name of Object.keys(process.env)) if (!(name in start)) delete process.env[name];
  Object.assign(process.env, start);
}
vi.resetModules();
