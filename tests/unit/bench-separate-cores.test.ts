/**
 * The bench's CPU-per-request rows keep the load generator and the servers on separate cores
 * while they measure, and give every process all cores back afterwards (a server left on one
 * core would skew every later row), even when the measuring throws.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { onSeparateCores } from '../../scripts/bench/bareServer';

/** The cores each thread of a process may run on (/proc's Cpus_allowed_list), one entry per thread. */
const coresOf = (pid: number) => [
  ...new Set(readdirSync(`/proc/${pid}/task`).map((tid) => /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))![1])),
];

const all = `0-${availableParallelism() - 1}`;
let server: ChildProcess | undefined;
afterEach(() => server?.kill());

/** A Node process standing in for a server: its V8 worker threads must move with it. */
async function startIdleNode(): Promise<number> {
  server = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await expect.poll(() => readdirSync(`/proc/${server!.pid}/task`).length).toBeGreaterThan(1);
  return server.pid!;
}

describe.skipIf(availableParallelism() < 2)('the bench on separate cores', () => {
  it('runs the load generator on core 0 and every thread of a server on core 1, then frees both', async () => {
    const pid = await startIdleNode();
    const { result, pinned } = await onSeparateCores([pid], async () => ({ bench: coresOf(process.pid), server: coresOf(pid) }));
    expect(pinned).toBe(true);
    expect(result).toEqual({ bench: ['0'], server: ['1'] });
    expect(coresOf(process.pid)).toEqual([all]);
    expect(coresOf(pid)).toEqual([all]);
  });

  it('frees both when the measuring throws', async () => {
    const pid = await startIdleNode();
    await expect(
      onSeparateCores([pid], async () => {
        throw new Error('a round failed');
      }),
    ).rejects.toThrow('a round failed');
    expect(coresOf(process.pid)).toEqual([all]);
    expect(coresOf(pid)).toEqual([all]);
  });
});
