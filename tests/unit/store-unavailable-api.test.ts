/**
 * PostgreSQL stopped under the real lead route (a restart, a failover): a loan request is answered
 * 503 with Retry-After and a reason a person can read — not a 500 "something went wrong" — and,
 * once the server is back, the same request (same idempotency key) is stored, once. Against a
 * real PostgreSQL 15, stopped and started again on the same data and port. A connection the
 * server ends under a transaction fails that transaction only: pg's 'error' event on it must not
 * end a process that has no catch-all (npm run worker, the commands).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { openStore } from '../../engine/store/db';
import { storeUnavailable } from '../../engine/store/unavailable';
import { leadRequest } from '../support/leadRequest';
import { startPostgres, type RunningPostgres } from '../support/postgres';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

const keep = mkdtempSync(join(tmpdir(), 'loansites-pg-restart-'));
let postgres: RunningPostgres | undefined;
let server: TraceServer | undefined;
let url = '';
beforeAll(async () => {
  postgres = await startPostgres({ keep });
  url = await postgres.createDatabase('store_unavailable');
  server = await startTraceServer(
    {
      DATABASE_URL: url,
      LEADS_ENCRYPTION_KEY: 'e'.repeat(64),
      LOANSITES_BUYERS_DIR: '',
      LEADS_WORKER: 'off',
      SALE_WORKER: 'off',
      LEAD_DESTINATIONS: '',
      RATE_LIMIT_LEADS: '50',
    },
    '/api/leads',
  );
}, 120_000);
afterAll(async () => {
  await server?.close();
  await postgres?.stop();
  rmSync(keep, { recursive: true, force: true });
});

const leadsStored = async (key: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM leads WHERE idempotency_key = $1', [key])).rows[0]!.n);
  } finally {
    await client.end();
  }
};

describe('a loan request while PostgreSQL is stopped', () => {
  it('is answered 503 with Retry-After and a readable reason, and stored once when sent again after the server is back', async () => {
    const first = await post(server!.port, JSON.stringify(leadRequest()), { path: '/api/leads' });
    expect(first.status, JSON.stringify(first.json)).toBe(201); // the store is up and in use

    const port = postgres!.port;
    await postgres!.stop();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const body = leadRequest();
    try {
      const down = await post(server!.port, JSON.stringify(body), { path: '/api/leads' });
      expect(down.status).toBe(503);
      expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
      expect(down.json.error).toBe('The service is briefly unavailable; please try again in a moment');
    } finally {
      logged.mockRestore();
      postgres = await startPostgres({ keep, port });
    }

    const again = await post(server!.port, JSON.stringify(body), { path: '/api/leads' });
    expect(again.status, JSON.stringify(again.json)).toBe(201);
    const retried = await post(server!.port, JSON.stringify(body), { path: '/api/leads' });
    expect(retried.status).toBe(200); // the same request: found, not stored twice
    expect(await leadsStored(body.idempotencyKey)).toBe(1);
  }, 120_000);
});

describe('PostgreSQL stopping while a connection is in use', () => {
  it('fails the transaction on it, and nothing else: the process goes on (no uncaught error event)', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => void uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const db = openStore({ url });
    try {
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const transaction = db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        held();
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await sql`select 1`.execute(trx);
      });
      await holding;
      const port = postgres!.port;
      await postgres!.stop();
      try {
        await expect(transaction).rejects.toThrow();
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(uncaught).toEqual([]);
      } finally {
        postgres = await startPostgres({ keep, port });
      }
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0]!.one).toBe(1); // the pool connects again
    } finally {
      process.off('uncaughtException', onUncaught);
      logged.mockRestore();
      await db.destroy();
    }
  }, 120_000);
});

describe('storeUnavailable', () => {
  it('tells a store that is away from a fault of the request or the code', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(storeUnavailable(refused)).toBe(true);
    expect(storeUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(storeUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe(true);
    expect(storeUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(storeUnavailable(new Error('Database migration 001 failed: connect ECONNREFUSED', { cause: refused }))).toBe(true);
    expect(storeUnavailable(new AggregateError([refused], ''))).toBe(true);
    expect(storeUnavailable(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }))).toBe(false);
    expect(storeUnavailable(Object.assign(new Error('relation "leads" does not exist'), { code: '42P01' }))).toBe(false);
    expect(storeUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(storeUnavailable(undefined)).toBe(false);
  });
});
