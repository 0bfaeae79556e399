/**
 * npm run db:migrate — brings the store (SQLite file by default, DATABASE_URL=postgres://… for
 * PostgreSQL) to the newest migration and says what it did. The server also does this on start.
 */
import './check-node.cjs';
import { migrateStore, openStore, storeKindOf, storeLocation } from '../engine/store/db';
import { takesNoOptions } from './cliFormat';

const HELP =
  'npm run db:migrate — brings the store (DATABASE_URL=postgres://… for PostgreSQL, else the SQLite file LOANSITES_DB_FILE or data/loansites.sqlite) to the newest migration. It takes no options.';
// an option it does not read is a mistake to say before the store is changed, not after
takesNoOptions('db:migrate', HELP, 'changed');

async function main() {
  const db = openStore();
  try {
    const { results = [] } = await migrateStore(db);
    console.log(`${storeKindOf()} store at ${storeLocation()}`);
    if (!results.length) console.log('already up to date');
    for (const r of results) console.log(`${r.status === 'Success' ? 'applied' : r.status}: ${r.migrationName}`);
  } finally {
    await db.destroy();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
