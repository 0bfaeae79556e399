/**
 * What an instance tells the others through Redis (engine/store/liveRevisions.ts): a saved
 * revision's kind and an announcement reach every other instance at once, an instance does not
 * hear its own announcement, and a save is never held up by Redis — with Redis lost, or never up,
 * a publish and an announcement return (the others' polls catch a revision). Against a real Redis,
 * stopped in the middle, and a plain Redis client standing in for another instance.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { announce, onAnnouncement, publishRevision, stopLiveRevisions } from '../../engine/store/liveRevisions';
import { closeStore } from '../../engine/store/db';
import { startRedis } from '../support/redis';
import { freePort } from '../support/ports';

const dir = mkdtempSync(join(tmpdir(), 'loansites-live-revisions-'));
Object.assign(process.env, { LOANSITES_DB_FILE: join(dir, 'store.sqlite'), DATABASE_URL: '' });

afterAll(async () => {
  await stopLiveRevisions();
  await closeStore();
  rmSync(dir, { recursive: true, force: true });
});

describe('telling the other instances', () => {
  it('with Redis: they hear a publish and an announcement, this one does not hear its own; with Redis lost, neither waits for it', async () => {
    const redis = await startRedis();
    process.env.REDIS_URL = redis.url;
    const other = createClient({ url: redis.url });
    const said: string[] = [];
    const heard: string[] = [];
    try {
      await other.connect();
      await other.subscribe('loansites:revisions', (message) => said.push(message));
      const stop = onAnnouncement('greeting', (body) => heard.push(body));

      await publishRevision('brand');
      await announce('greeting', 'from this instance');
      await expect.poll(() => said.length).toBe(2);
      expect(said[0]).toBe('brand');
      expect(JSON.parse(said[1]!)).toMatchObject({ topic: 'greeting', body: 'from this instance' });

      // another instance's announcement is heard; this one's own, said before it on the same channel, was not
      const publisher = other.duplicate();
      await publisher.connect();
      await publisher.publish('loansites:revisions', JSON.stringify({ from: 'another instance', topic: 'greeting', body: 'from another' }));
      await publisher.quit();
      await expect.poll(() => heard).toEqual(['from another']);
      stop();

      // Redis goes away: a save and an announcement still return, not queued until it is back
      await other.quit().catch(() => undefined);
      await redis.stop();
      await expect(publishRevision('brand')).resolves.toBeUndefined();
      await expect(announce('greeting', 'while Redis is away')).resolves.toBeUndefined();
    } finally {
      await other.quit().catch(() => undefined);
      await redis.stop();
      await stopLiveRevisions();
    }
  }, 30_000);

  it('with a Redis that never came up: a save returns', async () => {
    process.env.REDIS_URL = `redis://127.0.0.1:${await freePort()}`;
    try {
      await expect(publishRevision('brand')).resolves.toBeUndefined();
      await expect(announce('greeting', 'nobody is there')).resolves.toBeUndefined();
    } finally {
      await stopLiveRevisions();
    }
  }, 30_000);
});
