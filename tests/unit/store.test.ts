/**
 * The store against both real databases: SQLite (a temp file) and PostgreSQL 15 (started by
 * this file, tests/support/postgres.ts). Migrations, insert and read back byte for byte,
 * idempotency on uuid (sequential and concurrent), time filtering.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateStore, openStore, storeKindOf, type Store, type StoreOptions } from '../../engine/store/db';
import { MIGRATIONS } from '../../engine/store/migrations';
import { listSessionTraces, recordSessionTrace, type SessionTrace } from '../../engine/store/sessionTraces';
import { bothStores } from '../support/bothStores';

const { tmp, postgres } = bothStores('loansites-store-');

const uuid = (n: number) => `cc${n.toString(16).padStart(32, '0')}`;
const trace = (n: number, at: string, extra: Partial<SessionTrace> = {}): SessionTrace => ({
  uuid: uuid(n),
  brand: 'ipaydayloans',
  source1: 'spring',
  source2: '/payday-loans',
  clickId: 'ggabc',
  gaClientId: '123.456',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140',
  ip: '203.0.113.0',
  createdAt: at,
  ...extra,
});

describe.each([
  ['SQLite', (): StoreOptions => ({ url: '', file: join(tmp, 'store.sqlite') })],
  ['PostgreSQL', (): StoreOptions => ({ url: postgres().url })],
])('%s', (kind, options) => {
  let db: Store;
  beforeAll(async () => {
    expect(storeKindOf(options())).toBe(kind === 'SQLite' ? 'sqlite' : 'postgres');
    db = openStore(options());
    const { results = [] } = await migrateStore(db);
    expect(results.map((r) => [r.migrationName, r.status])).toEqual(MIGRATIONS.map(([name]) => [name, 'Success']));
  });
  afterAll(() => db?.destroy());

  it('migrating again does nothing', async () => {
    const { results = [] } = await migrateStore(db);
    expect(results).toEqual([]);
  });

  it('stores a trace and reads it back unchanged (unicode and long values included)', async () => {
    const row = trace(1, '2025-03-01T10:00:00.000Z', { source1: 'frühling–🌷', source2: '/' + 'x'.repeat(499), userAgent: 'u'.repeat(512) });
    expect(await recordSessionTrace(db, row)).toBe(true);
    const [back] = await listSessionTraces(db, { since: new Date('2025-03-01T09:59:59.999Z'), limit: 1 });
    expect(back).toEqual(row);
  });

  it('the same uuid twice is one row, and the first row is kept', async () => {
    const first = trace(2, '2025-03-02T10:00:00.000Z');
    expect(await recordSessionTrace(db, first)).toBe(true);
    expect(await recordSessionTrace(db, { ...first, source1: 'other', createdAt: '2025-03-02T11:00:00.000Z' })).toBe(false);
    const rows = (await listSessionTraces(db, { since: new Date('2025-03-02T00:00:00Z') })).filter((r) => r.uuid === first.uuid);
    expect(rows).toEqual([first]);
  });

  it('50 concurrent posts of one uuid store one row and report exactly one as new', async () => {
    const row = trace(3, '2025-03-03T10:00:00.000Z');
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => recordSessionTrace(db, row)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const stored = (await listSessionTraces(db, { since: new Date(0) })).filter((r) => r.uuid === row.uuid);
    expect(stored).toEqual([row]);
  });

  it('lists from a moment on, oldest first, by brand, up to a limit', async () => {
    await recordSessionTrace(db, trace(10, '2025-04-01T12:00:00.000Z', { brand: 'ustitleloans' }));
    await recordSessionTrace(db, trace(11, '2025-04-01T10:00:00.000Z'));
    await recordSessionTrace(db, trace(12, '2025-04-01T11:00:00.000Z'));
    const since = new Date('2025-04-01T10:00:00.000Z');
    expect((await listSessionTraces(db, { since })).map((r) => r.uuid)).toEqual([uuid(11), uuid(12), uuid(10)]);
    expect((await listSessionTraces(db, { since: new Date('2025-04-01T10:00:00.001Z') })).map((r) => r.uuid)).toEqual([uuid(12), uuid(10)]);
    expect((await listSessionTraces(db, { since, brand: 'ustitleloans' })).map((r) => r.uuid)).toEqual([uuid(10)]);
    expect((await listSessionTraces(db, { since, limit: 1 })).map((r) => r.uuid)).toEqual([uuid(11)]);
  });
});

describe('two starts on one fresh SQLite file (a server and npm run db:migrate)', () => {
  it('both migrate without an error; the migration is recorded once', async () => {
    const file = join(tmp, 'race.sqlite');
    const [a, b] = [openStore({ url: '', file }), openStore({ url: '', file })];
    try {
      const results = await Promise.allSettled([migrateStore(a), migrateStore(b)]);
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok']);
      expect(
        await a
          .selectFrom('schema_migrations' as never)
          .selectAll()
          .execute(),
      ).toHaveLength(MIGRATIONS.length);
    } finally {
      await Promise.all([a.destroy(), b.destroy()]);
    }
  });
});

describe('the embedded default', () => {
  it('creates its SQLite file (and folder) on first open, in WAL mode', async () => {
    const file = join(tmp, 'fresh', 'nested', 'loansites.sqlite');
    expect(existsSync(file)).toBe(false);
    const db = openStore({ url: '', file });
    try {
      await migrateStore(db);
      expect(existsSync(file)).toBe(true);
      expect(existsSync(`${file}-wal`)).toBe(true);
    } finally {
      await db.destroy();
    }
  });
});
