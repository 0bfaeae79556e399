import { createServer } from 'node:net';

/** A free loopback port: `base` and upward when given (the 34xx range of the deploy tests), else any. */
export async function freePort(base?: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | undefined>((resolve) => {
      const srv = createServer();
      srv.unref();
      srv.on('error', () => resolve(undefined));
      srv.listen(port, '127.0.0.1', () => {
        const { port: p } = srv.address() as { port: number };
        srv.close(() => resolve(p));
      });
    });
  if (base === undefined) return (await tryPort(0))!;
  for (let p = base; p < base + 100; p++) {
    const got = await tryPort(p);
    if (got) return got;
  }
  throw new Error(`no free port in ${base}–${base + 99}`);
}
