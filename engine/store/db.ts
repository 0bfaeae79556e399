/**
 * The store: one query layer (Kysely) over two real databases.
 * - Default: SQLite through better-sqlite3, a file at data/loansites.sqlite (LOANSITES_DB_FILE
 *   overrides it), WAL mode; created on first use, so a fresh machine needs nothing.
 * - DATABASE_URL=postgres://… : PostgreSQL through pg (a pool).
 * The same migrations (./migrations, one file each, in one ordered list) run on both, on start
 * (getStore, instrumentation.ts) and by `npm run db:migrate`.
 *
 * Timestamps are ISO 8601 UTC strings of fixed width ("2025-01-31T12:00:00.000Z", Date#toISOString)
 * in text columns: both dialects store and return them byte for byte, and they sort and compare
 * as text in time order.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import { onShutdown } from '../process/shutdown.mjs';
import { migrationProvider } from './migrations';
import type { FormTracesTable, LeadDeliveriesTable, LeadsTable } from './leads';
import { ReopeningSqlite } from './sqliteConnection';
import type { LeadScreeningTable } from './screening';
import type { ContactHashesTable, LeadReturnsTable, LeadSalesTable, SaleEventsTable, SuppressionsTable } from './saleTables';
import type { ConsoleAuditTable, ConsoleLoginAttemptsTable, ConsoleSessionsTable, ConsoleUsersTable } from './console';
import type { TrafficDailyTable, TrafficEventsTable, TrafficHourlyTable, TrafficRefusedTable, TrafficVisitStagesTable, TrafficVisitsTable } from './traffic';
import type { TrafficDailyPairsTable } from './trafficPairs';
import type { AdCostsTable } from './costs';
import type { DocumentRevisionsTable } from './revisions';
import type { ExperimentDailyTable, ExperimentExposuresTable } from './experiments';
import type { LeadCertificateClaimsTable, LeadCertificatesTable } from './certificates';
import type { AlertDeliveriesTable, AlertEpisodesTable, AlertRulesTable, ConsoleSignInLinksTable, CurrencyRatesTable } from './consoleMoney';

/** A stored session trace (SPEC §7), one row per session uuid. */
export interface SessionTracesTable {
  uuid: string;
  brand: string;
  source1: string;
  source2: string;
  click_id: string;
  ga_client_id: string;
  user_agent: string;
  /** the client's address with the host part dropped (engine/http/api.ts truncateIp) */
  ip: string;
  /** ISO 8601 UTC, server time */
  created_at: string;
}

/** Every table, as Kysely sees them. A migration that adds a table adds its interface here. */
export interface Database {
  session_traces: SessionTracesTable;
  leads: LeadsTable;
  lead_deliveries: LeadDeliveriesTable;
  form_traces: FormTracesTable;
  lead_sales: LeadSalesTable;
  sale_events: SaleEventsTable;
  contact_hashes: ContactHashesTable;
  suppressions: SuppressionsTable;
  lead_returns: LeadReturnsTable;
  lead_certificates: LeadCertificatesTable;
  lead_certificate_claims: LeadCertificateClaimsTable;
  lead_screening: LeadScreeningTable;
  traffic_visits: TrafficVisitsTable;
  traffic_events: TrafficEventsTable;
  traffic_visit_stages: TrafficVisitStagesTable;
  traffic_refused: TrafficRefusedTable;
  traffic_hourly: TrafficHourlyTable;
  traffic_daily: TrafficDailyTable;
  traffic_daily_pairs: TrafficDailyPairsTable;
  console_users: ConsoleUsersTable;
  console_sessions: ConsoleSessionsTable;
  console_audit: ConsoleAuditTable;
  console_login_attempts: ConsoleLoginAttemptsTable;
  ad_costs: AdCostsTable;
  document_revisions: DocumentRevisionsTable;
  currency_rates: CurrencyRatesTable;
  alert_rules: AlertRulesTable;
  alert_episodes: AlertEpisodesTable;
  alert_deliveries: AlertDeliveriesTable;
  console_sign_in_links: ConsoleSignInLinksTable;
  experiment_exposures: ExperimentExposuresTable;
  experiment_daily: ExperimentDailyTable;
}

export type Store = Kysely<Database>;
export type StoreKind = 'sqlite' | 'postgres';

export interface StoreOptions {
  /** postgres://… ; default DATABASE_URL. Anything else (or nothing) means SQLite. */
  url?: string;
  /** The SQLite file; default LOANSITES_DB_FILE, else data/loansites.sqlite under the working directory. */
  file?: string;
}

export const DEFAULT_SQLITE_FILE = 'data/loansites.sqlite';

const isPostgresUrl = (url: string | undefined): url is string => !!url && /^postgres(ql)?:\/\//i.test(url);

export function storeKindOf(options: StoreOptions = {}): StoreKind {
  return isPostgresUrl(options.url ?? process.env.DATABASE_URL) ? 'postgres' : 'sqlite';
}

/** Where the SQLite file is (for messages), or the PostgreSQL URL without its password. */
export function storeLocation(options: StoreOptions = {}): string {
  const url = options.url ?? process.env.DATABASE_URL;
  if (isPostgresUrl(url)) return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  return options.file ?? process.env.LOANSITES_DB_FILE ?? join(process.cwd(), DEFAULT_SQLITE_FILE);
}

/** Opens a store (no migrations: see migrateStore / getStore). Close it with `destroy()`. */
export function openStore(options: StoreOptions = {}): Store {
  const url = options.url ?? process.env.DATABASE_URL;
  if (isPostgresUrl(url)) {
    // pg is loaded when the first query needs the pool: a SQLite process (the default) never holds
    // the driver's modules in memory.
    const pool = async () => {
      const { default: pg } = await import('pg');
      const created = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_MAX ?? 10) });
      // An idle client's error (server restart) must not crash the process; the pool replaces it.
      created.on('error', (err) => console.error('[store] idle PostgreSQL client:', err.message));
      // Nor a checked-out one's: pg emits 'error' on a client whose connection ends under it (the
      // server stopping, restarting or failing over), and the pool listens only while the client
      // is idle. The query it was running is rejected with the same error, which its caller handles.
      created.on('connect', (client) => client.on('error', () => undefined));
      return created;
    };
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const file = storeLocation(options);
  mkdirSync(dirname(file), { recursive: true });
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: new ReopeningSqlite(file) }) });
}

/**
 * Throws, saying why, when the store cannot be written: a SQLite file that opens only for
 * reading (a read-only disk or file) or a PostgreSQL server in read-only mode (a standby). A
 * write that is rolled back: nothing changes. Reading alone would pass on a read-only database.
 */
export async function checkWritable(db: Store, kind: StoreKind = storeKindOf()): Promise<void> {
  try {
    if (kind === 'postgres') {
      const { rows } = await sql<{ ro: string }>`select current_setting('transaction_read_only') as ro`.execute(db);
      if (rows[0]?.ro === 'on')
        throw new Error('the PostgreSQL server accepts only reads (transaction_read_only is on: a standby, or default_transaction_read_only)');
      return;
    }
    await db.transaction().execute(async (trx) => {
      await sql`update schema_migrations_lock set is_locked = is_locked`.execute(trx);
      throw ROLLED_BACK;
    });
  } catch (err) {
    if (err === ROLLED_BACK) return;
    throw new Error(
      `The ${kind} store at ${storeLocation()} cannot be written: ${(err as Error).message}. Leads and traces would be lost; fix the disk or the database, then restart.`,
      {
        cause: err,
      },
    );
  }
}

const ROLLED_BACK = new Error('rolled back');

/**
 * Brings the store's schema to the newest migration; throws with the failing migration's name.
 * On PostgreSQL Kysely holds an advisory lock while migrating; SQLite has no such lock, so when
 * two processes start on one file (a server and `npm run db:migrate`) the loser's CREATE fails —
 * it tries again a few times, by then finding the migrations applied by the other.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on any schema (Kysely's own convention)
export async function migrateStore(db: Kysely<any>, attempts = 4): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db, provider: migrationProvider, migrationTableName: 'schema_migrations', migrationLockTableName: 'schema_migrations_lock' });
  for (let attempt = 1; ; attempt++) {
    const result = await migrator.migrateToLatest();
    if (!result.error) return result;
    if (attempt < attempts) {
      await new Promise((r) => setTimeout(r, 150 * attempt));
      continue;
    }
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    const cause = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Database migration ${failed ?? ''} failed: ${cause}`, { cause: result.error });
  }
}

/**
 * The process-wide store lives on globalThis: Next bundles this module more than once (the
 * instrumentation hook and each API route get their own copy), and two copies must not open
 * two connections or migrate side by side.
 */
const SHARED = Symbol.for('loansites.store');
const holder = globalThis as typeof globalThis & { [SHARED]?: Promise<Store> };

/** The process-wide store: opened once, migrated once, checked writable. A failed open, migration or check is retried on the next call. */
export function getStore(): Promise<Store> {
  holder[SHARED] ??= (async () => {
    const db = openStore();
    try {
      await migrateStore(db);
      await checkWritable(db);
      // Closed last, after the workers that write to it: SQLite then folds its write-ahead log into the file.
      onShutdown('store', 'connections', closeStore);
      return db;
    } catch (err) {
      await db.destroy().catch(() => {});
      throw err;
    }
  })().catch((err) => {
    holder[SHARED] = undefined;
    throw err;
  });
  return holder[SHARED];
}

/** Closes the process-wide store (scripts, tests). */
export async function closeStore(): Promise<void> {
  const open = holder[SHARED];
  holder[SHARED] = undefined;
  if (open) await (await open.catch(() => undefined))?.destroy();
}
