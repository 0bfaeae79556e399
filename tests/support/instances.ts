/**
 * Production instances for the multi-instance tests: `node server.mjs` on the production
 * build (npm run build first), as deploy/compose.yaml runs them, each in its own process group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { isPortFree } from './ports';

export interface Instance {
  port: number;
  /** the server's process id (its memory is read from /proc by tests/support/slowReaders.ts) */
  pid: number;
  url: string;
  /** what the instance printed (stdout + stderr), for failure messages */
  log(): string;
  /** SIGKILL: the instance dies at once, mid-request */
  kill(): void;
  /** SIGTERM to the server alone, without waiting (a deployment stopping it) */
  terminate(): void;
  /** the exit code once the process has ended */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * Started once the child itself says it listens (server.mjs's line) and answers: another process
 * on the port answers too, and the test would talk to it while its own server died of EADDRINUSE.
 */
export async function startInstance(port: number, env: Record<string, string>): Promise<Instance> {
  if (!(await isPortFree(port)))
    throw new Error(`port ${port} is taken by another process: give this instance a port of its own (tests/support/ports.ts freePort)`);
  const child: ChildProcess = spawn('node', ['server.mjs'], {
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  let exited = false;
  const exitCode = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.on('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      /* already gone */
    }
  };
  const listening = `server on http://localhost:${port} `;
  for (let i = 0; ; i++) {
    if (exited) throw new Error(`instance on ${port} exited:\n${output}`);
    try {
      if (output.includes(listening) && (await fetch(`${url}/static/ping.txt`, { signal: AbortSignal.timeout(2000) })).ok) break;
    } catch {
      /* not up yet */
    }
    if (i > 300) throw new Error(`instance on ${port} did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    pid: child.pid!,
    url,
    log: () => output,
    kill: () => signal('SIGKILL'),
    terminate: () => child.kill('SIGTERM'),
    exited: exitCode,
    async stop() {
      if (exited) return;
      const gone = new Promise((r) => child.once('exit', r));
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 5000);
      await gone;
      clearTimeout(timer);
    },
  };
}
