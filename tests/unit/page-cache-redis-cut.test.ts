/**
 * A brand published while the instances cannot reach Redis, which keeps its data (a network cut,
 * a failover): each instance hears of the change and is asked to drop the brand's pages, but
 * cannot. When Redis is reachable again, no instance may serve the pages from before the change
 * (for up to their hour's lifetime): the deletion is made then. Against a real redis-server,
 * reached through a TCP relay the test cuts and mends (the network between them).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createClient } from 'redis';
import { createPageCache } from '../../engine/cache/redisPageCache.mjs';
import { startRedis, type RunningRedis } from '../support/redis';

type PageCache = {
  get(key: string, ctx: unknown): Promise<{ value: { html: string } } | null>;
  set(key: string, data: unknown, ctx: unknown): Promise<void>;
  dropUnder(path: string): Promise<number>;
  close(): Promise<void>;
};
const page = (html: string) => ({ kind: 'PAGES', html, pageData: { html }, headers: undefined, status: 200 });
const setCtx = { cacheControl: { revalidate: 3600, expire: 31536000 }, isRoutePPREnabled: false, isFallback: false };
const getCtx = { kind: 'PAGES', isFallback: false };

/** The network between the instances and Redis: a TCP relay whose connections can be cut (and refused) until it is mended. */
interface Relay {
  url: string;
  cut(): void;
  mend(): void;
  close(): Promise<void>;
}
async function relayTo(port: number): Promise<Relay> {
  const open = new Set<Socket>();
  let down = false;
  const server: Server = createServer((inbound) => {
    if (down) return void inbound.destroy();
    const outbound = createConnection({ port, host: '127.0.0.1' });
    for (const s of [inbound, outbound]) {
      open.add(s);
      s.on('error', () => undefined);
      s.on('close', () => (open.delete(s), inbound.destroy(), outbound.destroy()));
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut() {
      down = true;
      for (const s of open) s.destroy();
    },
    mend() {
      down = false;
    },
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), [...open].forEach((s) => s.destroy()))),
  };
}

let redis: RunningRedis;
let relay: Relay;
beforeAll(async () => {
  redis = await startRedis();
  relay = await relayTo(redis.port);
}, 30_000);
afterAll(async () => {
  await relay?.close();
  await redis?.stop();
});

describe('a brand changed while the instances cannot reach Redis', () => {
  it('its pages from before the change are deleted once Redis is reachable again, by whichever instance gets there, and none is served meanwhile', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const said = vi.spyOn(console, 'log').mockImplementation(() => {});
    const prefix = `cut-${Date.now()}:`;
    const a: PageCache = createPageCache({ redisUrl: relay.url, keyPrefix: prefix, localCopy: 'off' });
    const b: PageCache = createPageCache({ redisUrl: relay.url, keyPrefix: prefix, localCopy: 'keyspace' });
    const inspector = createClient({ url: redis.url });
    await inspector.connect();
    const keysOf = (brand: string) => inspector.keys(`${prefix}*/_brand/${brand}*`);
    try {
      // Before: the brand's pages (and another brand's) rendered by A, served by B from Redis.
      await a.set('/_brand/acme/loans', page('<h1>old</h1>'), setCtx);
      await a.set('/_brand/acme', page('<h1>old home</h1>'), setCtx);
      await a.set('/_brand/other/loans', page('<h1>other</h1>'), setCtx);
      expect((await b.get('/_brand/acme/loans', getCtx))?.value.html).toBe('<h1>old</h1>');
      expect(await keysOf('acme')).toHaveLength(2);

      relay.cut();
      // Both notice: reads are misses (the pages are rendered, with the new document)
      await expect.poll(() => a.get('/_brand/acme/loans', getCtx), { timeout: 5000 }).toBeNull();
      await expect.poll(() => b.get('/_brand/acme/loans', getCtx), { timeout: 5000 }).toBeNull();
      // The brand is published: each instance, hearing of it, asks for the brand's pages to be dropped.
      await a.dropUnder('/_brand/acme').catch(() => 0);
      await b.dropUnder('/_brand/acme').catch(() => 0);
      expect(await keysOf('acme')).toHaveLength(2); // Redis kept them: nobody could reach it

      relay.mend();
      // Once reconnected, each deletes what it owes without waiting for a request…
      await expect.poll(() => keysOf('acme'), { timeout: 10_000 }).toEqual([]);
      // …and no instance serves the page from before the change.
      expect(await a.get('/_brand/acme/loans', getCtx)).toBeNull();
      expect(await b.get('/_brand/acme', getCtx)).toBeNull();
      // The other brand was not touched.
      expect((await b.get('/_brand/other/loans', getCtx))?.value.html).toBe('<h1>other</h1>');
      // A page rendered from the new document is stored and shared again.
      await b.set('/_brand/acme/loans', page('<h1>new</h1>'), setCtx);
      expect((await a.get('/_brand/acme/loans', getCtx))?.value.html).toBe('<h1>new</h1>');
    } finally {
      await inspector.quit();
      await Promise.all([a.close(), b.close()]);
      logged.mockRestore();
      said.mockRestore();
    }
  }, 30_000);

  it('a page read as Redis comes back is not served from it while the deletion owed under it is not made', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const said = vi.spyOn(console, 'log').mockImplementation(() => {});
    const prefix = `cut2-${Date.now()}:`;
    const a: PageCache = createPageCache({ redisUrl: relay.url, keyPrefix: prefix, localCopy: 'off' });
    try {
      await a.set('/_brand/acme/loans', page('<h1>old</h1>'), setCtx);
      await a.set('/_brand/other/loans', page('<h1>other</h1>'), setCtx);
      expect((await a.get('/_brand/other/loans', getCtx))?.value.html).toBe('<h1>other</h1>');
      relay.cut();
      await expect.poll(() => a.get('/_brand/acme/loans', getCtx), { timeout: 5000 }).toBeNull();
      await a.dropUnder('/_brand/acme').catch(() => 0);
      relay.mend();
      // each read of the changed brand's page from the moment Redis answers again (the other brand's page is a hit): never the old page
      const seen: (string | null)[] = [];
      const until = Date.now() + 15_000;
      while (seen.length < 20 && Date.now() < until) {
        const [acme, other] = await Promise.all([a.get('/_brand/acme/loans', getCtx), a.get('/_brand/other/loans', getCtx)]);
        if (other) seen.push(acme?.value.html ?? null);
        await new Promise((resolve) => setTimeout(resolve, 5)); // a miss while Redis is away answers without I/O: let the reconnection in
      }
      expect(seen).toHaveLength(20);
      expect(new Set(seen)).toEqual(new Set([null]));
    } finally {
      await a.close();
      logged.mockRestore();
      said.mockRestore();
    }
  }, 30_000);
});
