/**
 * A production server renders a spread of pages of every brand and template at start, before it
 * listens (server.mjs, WARM_UP_PAGES), so a deploy's first visitors are not the ones paying for
 * V8 compiling the render path — and it keeps none of them: nothing stored, nothing sent. These
 * start their own instances and ask the page cache's counters (PAGE_CACHE_STATS, loopback only)
 * at the first moment the port accepts a connection.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { accepting } from '../support/accepting';
import { startInstance, type Instance } from '../support/instances';
import { pageAnswer } from '../support/comparedInstances';
import { PORT } from './helpers';

interface Counters {
  entries: number;
  stored: number;
  renderedDirect: number;
  warmUp: { asked: number; rendered: number; ms: number; pages?: string[] };
}

const counters = async (port: number) => (await (await fetch(`http://127.0.0.1:${port}/__page-cache`)).json()) as Counters;
const env = (port: number, extra: Record<string, string> = {}) => ({
  PAGE_CACHE_STATS: '1',
  LOANSITES_DB_FILE: join(tmpdir(), `loansites-e2e-${port}.sqlite`),
  DATABASE_URL: '',
  REDIS_URL: '',
  ...extra,
});

const instances: Instance[] = [];
test.afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
});

test('the warm-up has rendered every page it was given before the port accepts a connection, stored none, and the first page asked is a miss the server renders itself', async () => {
  test.setTimeout(120_000);
  const port = PORT + 90;
  const starting = startInstance(port, env(port, { WARM_UP_PAGES: '600' }));
  await accepting(port, { everyMs: 20, tries: 3000 });
  const atFirstConnection = await counters(port);
  instances.push(await starting);
  expect(atFirstConnection.warmUp.asked).toBeGreaterThan(0);
  expect(atFirstConnection.warmUp.rendered).toBe(atFirstConnection.warmUp.asked);
  const brands = new Set(atFirstConnection.warmUp.pages!.map((p) => p.split('/')[2]));
  expect(brands.size, 'pages of every brand').toBeGreaterThan(5);
  // nothing of it in the page cache: the server's first visitors get misses, as before
  expect([atFirstConnection.entries, atFirstConnection.stored]).toEqual([0, 0]);
  const first = await pageAnswer(port, 'ipaydayloans.localhost', '/location/ca/los-angeles');
  expect(first.status).toBe(200);
  expect(first.headers['x-nextjs-cache']).toBe('MISS');
  // rendered by server.mjs's cold path from the first page on (it learnt Next's render options at start)
  expect((await counters(port)).renderedDirect).toBe(1);
});

test('without WARM_UP_PAGES a server starts with no warm-up, yet renders its first page itself; a value that is not a number of pages stops the start with the reason', async () => {
  test.setTimeout(120_000);
  const port = PORT + 91;
  const off = await startInstance(port, env(port));
  instances.push(off);
  expect((await counters(port)).warmUp).toMatchObject({ asked: 0, rendered: 0 });
  expect(off.log()).not.toContain('render path warmed up');
  const first = await pageAnswer(port, 'ipaydayloans.localhost', '/location/tx/houston');
  expect([first.status, first.headers['x-nextjs-cache']]).toEqual([200, 'MISS']);
  expect((await counters(port)).renderedDirect).toBe(1);

  const badPort = PORT + 92;
  const refused = await startInstance(badPort, env(badPort, { WARM_UP_PAGES: 'lots' })).then(
    () => 'started',
    (err: Error) => err.message,
  );
  expect(refused).toContain('WARM_UP_PAGES must be a whole number of pages (0 turns the warm-up off), not "lots"');
});
