/**
 * The ports a spec's own servers get (tests/support/ports.ts): specs run side by side in several
 * processes, and a server binds its port seconds after it was handed out, so a port handed out
 * from a base is leased to its caller across processes until the server has surely bound it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startInstance } from '../support/instances';
import { freePort, PORT_LEASE_MS } from '../support/ports';

const run = promisify(execFile);
// this file's leases apart from those of the suites running beside it
const leases = mkdtempSync(join(tmpdir(), 'loansites-port-leases-'));
process.env.LOANSITES_TEST_PORT_LEASES = leases;
const PORTS_MODULE = join(import.meta.dirname, '../support/ports.ts');

afterAll(() => rmSync(leases, { recursive: true, force: true }));

/** A base of this test's own: a port the kernel picks (the ones after it are most likely free). */
const someBase = () => freePort();

/** `node` processes started together, each asking for one port from `base` (Node strips the module's types itself). */
async function askFromProcesses(count: number, base: number): Promise<number[]> {
  const script = `const { freePort } = await import(${JSON.stringify(PORTS_MODULE)}); console.log(await freePort(${base}));`;
  const answers = await Promise.all(
    Array.from({ length: count }, () =>
      run(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], { env: { ...process.env, LOANSITES_TEST_PORT_LEASES: leases } }),
    ),
  );
  return answers.map((a) => Number(a.stdout.trim()));
}

describe('ports handed out from a base', () => {
  it('are different for callers that ask at the same time, in one process or in several, though none has bound its port yet', async () => {
    const base = await someBase();
    const together = await Promise.all(Array.from({ length: 4 }, () => freePort(base)));
    expect(new Set(together).size).toBe(4);
    const apart = await askFromProcesses(4, base);
    expect(apart.every((p) => p >= base && p < base + 100)).toBe(true);
    expect(new Set([...together, ...apart]).size).toBe(8);
  });

  it('skip a port another process listens on, and hand a port out again once its lease is over', async () => {
    const base = await someBase();
    const taken: NetServer = createServer();
    await new Promise<void>((r) => taken.listen(base, '127.0.0.1', r));
    try {
      const first = await freePort(base);
      expect(first).toBeGreaterThan(base);
      expect(await freePort(base)).not.toBe(first);
      // the lease over (its server would be listening by now, or gone): the same port again
      const then = new Date(Date.now() - PORT_LEASE_MS - 1000);
      utimesSync(join(leases, String(first)), then, then);
      expect(await freePort(base)).toBe(first);
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });
});

describe('a spec’s own server', () => {
  it('is refused a port another server answers on, with the reason, instead of being taken for that server', async () => {
    // another spec's server, answering the readiness check as ours would
    const other: Server = createHttpServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => other.listen(0, r));
    const port = (other.address() as { port: number }).port;
    try {
      await expect(startInstance(port, {})).rejects.toThrow(`port ${port} is taken by another process`);
    } finally {
      await new Promise((r) => other.close(r));
    }
  });
});
