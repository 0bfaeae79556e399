/**
 * Waiting for a server to accept TCP connections without asking it for anything (no request: no
 * page rendered, nothing warmed by the wait itself). The idle-memory bench reads a server's memory
 * from that moment (scripts/bench/idleMemory.ts); tests/e2e/warm-start.spec.ts asks what the
 * server had done by then.
 */
import { connect } from 'node:net';

/** Resolves as soon as the port accepts a connection, tried every `everyMs` (at most `tries` times). */
export async function accepting(port: number, { everyMs = 100, tries = 300 } = {}): Promise<void> {
  for (let i = 0; i < tries; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`nothing accepted connections on ${port}`);
}
