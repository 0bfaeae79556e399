/**
 * Clients that ask for an answer and never read it, and what the server does about them
 * (engine/http/slowClients.mjs): its memory (VmRSS, /proc), and how many of their connections
 * it still holds open (its ESTABLISHED sockets on its port, /proc/net/tcp). Loopback only;
 * every loop has a deadline. Used by tests/e2e/slow-readers.spec.ts and the bench.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

/** The resident memory of a process, in bytes. */
export function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb ?? 0) * 1024;
}

interface TcpRow {
  localPort: number;
  remotePort: number;
  established: boolean;
  /** bytes received and not yet read by the process that owns the socket */
  unread: number;
}

/** The machine's TCP sockets (/proc/net/tcp and tcp6). */
function tcpRows(): TcpRow[] {
  const rows: TcpRow[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, remote, state, queues] = line.trim().split(/\s+/);
      if (!local || !remote || !queues) continue;
      const port = (address: string) => parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
      rows.push({ localPort: port(local), remotePort: port(remote), established: state === '01', unread: parseInt(queues.split(':')[1]!, 16) });
    }
  }
  return rows;
}

/** Connections the server on `port` holds ESTABLISHED (its own side: local port = `port`). */
export const establishedOn = (port: number): number => tcpRows().filter((r) => r.established && r.localPort === port).length;

/** Client connections to `port` with answer bytes waiting, unread, in their receive buffer. */
const answeredOn = (port: number): number => tcpRows().filter((r) => r.established && r.remotePort === port && r.unread > 0).length;

/**
 * `count` connections that each send `pipelined` GETs at once and then read nothing (with two,
 * the second answer waits in the server's process, whatever the kernel's buffers hold of the
 * first). Resolves once every request is sent.
 */
export async function openNonReaders(port: number, host: string, path: string, count: number, pipelined = 2): Promise<{ close(): void }> {
  const sockets: Socket[] = [];
  await Promise.all(
    Array.from(
      { length: Math.min(count, 200) },
      () =>
        new Promise<void>((resolve, reject) => {
          const s = connect({ host: '127.0.0.1', port }, () => {
            s.pause(); // never read: what the server writes stays in its buffers
            s.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`.repeat(Math.min(pipelined, 4)), () => resolve());
          });
          s.on('error', () => undefined); // the server resetting it is the point
          s.once('error', reject);
          sockets.push(s);
        }),
    ),
  );
  return { close: () => sockets.forEach((s) => s.destroy()) };
}

export interface SlowReaderRun {
  /** the server's resident memory before, at its highest while they were connected, and once it had closed them (or at the deadline) */
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
  /** ms from the moment the server had answered them all (bytes waiting at every client) until it held none of their connections (undefined: not within the deadline) */
  closedAfterMs: number | undefined;
  /** ms the probe took, run while they were connected */
  probeMs: number;
}

/**
 * `count` non-readers of `path`, then `probe` (a normal request) while they hold on, then a
 * wait of at most `deadlineMs` for the server to close them all (connections it had open
 * before, kept alive for the caller, are not counted).
 */
export async function slowReaderRun(opts: {
  port: number;
  pid: number;
  host: string;
  path: string;
  count: number;
  deadlineMs: number;
  probe: () => Promise<unknown>;
}): Promise<SlowReaderRun> {
  const baseline = establishedOn(opts.port);
  const rssBefore = rssOf(opts.pid);
  let rssPeak = rssBefore;
  const sample = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(opts.pid))), 100);
  const readers = await openNonReaders(opts.port, opts.host, opts.path, opts.count);
  try {
    // Until the server has answered every one of them (the bytes wait, unread, at the clients):
    // from then on they are clients that read nothing.
    const until = Date.now() + opts.deadlineMs;
    while (answeredOn(opts.port) < opts.count && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const answered = Date.now();
    const started = Date.now();
    await opts.probe();
    const probeMs = Date.now() - started;
    let closedAfterMs: number | undefined;
    while (Date.now() - answered < opts.deadlineMs) {
      if (establishedOn(opts.port) <= baseline) {
        closedAfterMs = Date.now() - answered;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    rssPeak = Math.max(rssPeak, rssOf(opts.pid));
    return { rssBefore, rssPeak, rssAfter: rssOf(opts.pid), closedAfterMs, probeMs };
  } finally {
    clearInterval(sample);
    readers.close();
  }
}
