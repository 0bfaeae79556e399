import { mkdirSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Ports handed out from a base are leased for a while, across every test process of the machine
 * (Playwright's workers, vitest's, another checkout's run): a probe only says a port is free now,
 * and a server started on it (server.mjs renders a page before it listens) binds seconds later.
 * Two specs that asked for ports from the same base in those seconds got the same one, and one
 * spec's browser then talked to the other spec's server. A lease outlives any start; by the time
 * it ends the server listens (the probe sees it) or is gone. LOANSITES_TEST_PORT_LEASES moves the
 * leases (a test of this file).
 */
const leases = () => process.env.LOANSITES_TEST_PORT_LEASES ?? join(tmpdir(), 'loansites-test-ports');
export const PORT_LEASE_MS = 3 * 60_000;
/** A lock left by a process that died while holding it is broken after this. */
const STALE_LOCK_MS = 10_000;

/** Whether nothing listens on the loopback `port` (a server bound to every address counts). */
export function isPortFree(port: number): Promise<boolean> {
  return probe(port).then((p) => p !== undefined);
}

function probe(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', () => resolve(undefined));
    srv.listen(port, '127.0.0.1', () => {
      const { port: p } = srv.address() as { port: number };
      srv.close(() => resolve(p));
    });
  });
}

const leased = (port: number): boolean => {
  try {
    return Date.now() - statSync(join(leases(), String(port))).mtimeMs < PORT_LEASE_MS;
  } catch {
    return false;
  }
};

/** Runs `work` while no other process hands out ports (a directory made atomically is the lock). */
async function handingOut<T>(work: () => Promise<T>): Promise<T> {
  mkdirSync(leases(), { recursive: true });
  const lock = join(leases(), 'lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmdirSync(lock);
      } catch {
        /* released meanwhile */
      }
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 10));
    }
  }
  try {
    return await work();
  } finally {
    rmdirSync(lock);
  }
}

/**
 * A free loopback port: `base` and upward when given (a spec's own servers), leased to this call
 * (no other caller is given it for PORT_LEASE_MS); else any the kernel picks.
 */
export async function freePort(base?: number): Promise<number> {
  if (base === undefined) return (await probe(0))!;
  return handingOut(async () => {
    for (let p = base; p < base + 100; p++) {
      if (leased(p) || !(await probe(p))) continue;
      writeFileSync(join(leases(), String(p)), String(process.pid));
      return p;
    }
    throw new Error(`no free port in ${base}–${base + 99}`);
  });
}
