/**
 * A server's start-up without its pages, in a process of its own: the block specs handed in as
 * server.mjs does, then instrumentation.ts's register()
 * (the lead key checked, the store opened, the lead worker and the sale sweep started), kept
 * running until killed. A test gives it the store (LOANSITES_DB_FILE or DATABASE_URL), its buyers
 * (LOANSITES_BUYERS_DIR and their secrets) and SALE_SWEEP_INTERVAL_MS in its environment, and
 * reads what it logs.
 */
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { setBlockSpecs } from '../../engine/site/catalog';
import { register } from '../../instrumentation';

// server.mjs hands the catalog its block specs first (the sale reads the brands' postbacks)
setBlockSpecs(BLOCK_SPECS);

// as next start runs it (register reads this when called)
process.env.NEXT_RUNTIME = 'nodejs';
await register();
console.log('[test] started');
// a server stays up for its requests: so does this stand-in for one
setInterval(() => undefined, 60_000);
