/**
 * An experiment's variants in a cluster: two production instances sharing one Redis page cache
 * (as deploy/compose.yaml runs them). A visitor assigned on one instance sees the same variant on
 * the other (the cookie carries it), and each variant rendered on one instance is answered by the
 * other from the shared cache (x-nextjs-cache: HIT on its first request there), never rendered twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { createClient } from 'redis';
import { E2E_PORT } from '../../playwright.config';
import { startInstance, type Instance } from '../support/instances';
import { startRedis, type RunningRedis } from '../support/redis';
import { freePort } from '../support/ports';
import { raw } from './console.fixtures';

const EXPERIMENT = 'payday-hero-headline';
const HOST = 'ipaydayloans.localhost';
const HEADINGS: Record<string, string> = { control: 'Payday Loans Online', 'cash-before-payday': 'Cash Before Payday, Without the Runaround' };
const dir = mkdtempSync(join(tmpdir(), 'loansites-cluster-experiments-'));
let redis: RunningRedis;
let a: Instance;
let b: Instance;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(180_000);
  redis = await startRedis({ port: await freePort(E2E_PORT + 4) });
  const env = (name: string) => ({ REDIS_URL: redis.url, DATABASE_URL: '', LOANSITES_DB_FILE: join(dir, `${name}.sqlite`), LEAD_DESTINATIONS: '' });
  a = await startInstance(await freePort(E2E_PORT + 5), env('a'));
  b = await startInstance(await freePort(E2E_PORT + 6), env('b'));
});
test.afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The shared page cache's keys. */
async function keys(): Promise<string[]> {
  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    return await client.keys('*');
  } finally {
    await client.quit();
  }
}

const heading = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];

test('a visitor assigned on one instance sees the same variant on the other, served there from the shared cache', async () => {
  test.setTimeout(120_000);
  const seen = new Set<string>();
  for (let i = 0; i < 12 && seen.size < 2; i++) {
    // assigned on A: the cookie names the variant
    const first = await raw('GET', '/payday-loans', HOST, '', {}, undefined, a.port);
    expect(first.status).toBe(200);
    const cookie = String(first.headers['set-cookie'] ?? '').split(';')[0]!;
    const variant = new RegExp(`\\|${EXPERIMENT}:([a-z-]+)$`).exec(cookie)?.[1];
    expect(variant && HEADINGS[variant], cookie).toBeDefined();
    expect(heading(first.body)).toBe(HEADINGS[variant!]);
    if (seen.has(variant!)) continue;
    seen.add(variant!);
    // the variant's own entry in the shared cache (the control is the page's own path)
    const entry = variant === 'control' ? '/_brand/ipaydayloans/payday-loans' : `/_brand/ipaydayloans/_v~${EXPERIMENT}~${variant}/payday-loans`;
    await expect.poll(async () => (await keys()).some((k) => k.endsWith(entry)), { timeout: 15_000 }).toBe(true);
    // B has never rendered this variant: it answers from the cache A filled, with the same page
    const onB = await raw('GET', '/payday-loans', HOST, '', { cookie }, undefined, b.port);
    expect(onB.status).toBe(200);
    expect(onB.headers['x-nextjs-cache'], `${variant} on B`).toBe('HIT');
    expect(onB.headers['x-loansites-experiment']).toBe(`${EXPERIMENT}=${variant}`);
    expect(onB.headers['set-cookie']).toBeUndefined();
    expect(heading(onB.body)).toBe(HEADINGS[variant!]);
  }
  expect([...seen].sort()).toEqual(['cash-before-payday', 'control']);
});
