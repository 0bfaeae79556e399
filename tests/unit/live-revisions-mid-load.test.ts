/**
 * Another instance's save heard while this instance is loading the same kind
 * (engine/store/liveRevisions.ts): the load under way may have read the store before that save, so
 * the instance loads again after it and holds the new revision at once — not at its next poll,
 * here ten minutes away. Against a real Redis and a real SQLite store; the load under way is held
 * after its read (a Kysely plugin on its store), a plain Redis client stands in for the other
 * instance.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin } from 'kysely';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { currentRevisions, publishRevision, revisionsReady, stopLiveRevisions } from '../../engine/store/liveRevisions';
import { closeStore, getStore, type Store } from '../../engine/store/db';
import { saveRevision } from '../../engine/store/revisions';
import { startRedis } from '../support/redis';

const dir = mkdtempSync(join(tmpdir(), 'loansites-live-mid-load-'));
Object.assign(process.env, { LOANSITES_DB_FILE: join(dir, 'store.sqlite'), DATABASE_URL: '', REVISIONS_POLL_MS: '600000' });

const KIND = 'mid-load-test';
const save = (db: Store, version: number) =>
  saveRevision(db, { kind: KIND, key: 'k', document: { n: version }, expectedVersion: version - 1, author: 'test', baseHash: '', before: {} });

/** The store with every query's result from the `n`th on held until `release` (the query itself has run by then). */
function holdingFrom(db: Store, n: number) {
  let seen = 0;
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let heldNow!: () => void;
  const held = new Promise<void>((r) => (heldNow = r));
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      if (++seen >= n) {
        heldNow();
        await released;
      }
      return args.result;
    },
  };
  return { db: db.withPlugin(plugin), held, release };
}

afterAll(async () => {
  await stopLiveRevisions();
  await closeStore();
  rmSync(dir, { recursive: true, force: true });
});

describe('a save heard during a load of its kind', () => {
  it('is loaded right after that load, not at the next poll', async () => {
    const redis = await startRedis();
    process.env.REDIS_URL = redis.url;
    const other = createClient({ url: redis.url });
    try {
      const db = await getStore();
      await save(db, 1);
      await revisionsReady(KIND);
      expect(currentRevisions(KIND).get('k')?.version).toBe(1);
      await other.connect();
      // this instance's subscription is up (it is made when the live revisions start)
      await expect.poll(async () => ((await other.sendCommand(['PUBSUB', 'NUMSUB', 'loansites:revisions'])) as [string, number])[1]).toBe(1);

      // a load under way: its count and its read of the revisions are made, its answer held; it says
      // nothing on the channel (no REDIS_URL for its tell), so only the other instance's word is heard
      delete process.env.REDIS_URL;
      const slow = holdingFrom(db, 2);
      const loading = publishRevision(KIND, slow.db);
      await slow.held;

      // the other instance saves version 2 and says so; its word is delivered to a listener on the channel
      const listener = other.duplicate();
      const words: string[] = [];
      await listener.connect();
      await listener.subscribe('loansites:revisions', (m) => words.push(m));
      await save(db, 2);
      const publisher = other.duplicate();
      await publisher.connect();
      await publisher.publish('loansites:revisions', KIND);
      await publisher.quit();
      await expect.poll(() => words).toEqual([KIND]);
      await listener.quit();
      // this instance's subscriber had it on the same turn of Redis; a moment lets it take it before
      // the load ends (had it come after, any code would load again: this could pass wrongly, never fail wrongly)
      await new Promise((r) => setTimeout(r, 50));

      slow.release();
      await loading;
      await expect.poll(() => currentRevisions(KIND).get('k')?.version, { timeout: 3000 }).toBe(2);
    } finally {
      await other.quit().catch(() => undefined);
      await stopLiveRevisions();
      await redis.stop();
    }
  }, 30_000);
});
