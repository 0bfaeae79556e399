/**
 * npm run worker — the lead outbox worker as its own process (run the servers with
 * LEADS_WORKER=off then). Delivers due leads every LEADS_WORKER_INTERVAL_MS (default 2000)
 * until SIGTERM/SIGINT, then finishes the round it is in. Safe beside other workers: a row is
 * claimed by one worker at a time.
 */
import './check-node.cjs';
import { BLOCK_SPECS } from '../blocks/generated/specs';
import { setBlockSpecs } from '../engine/site/catalog';
import { requireLeadKey } from '../engine/keys/sealing';
import { closeStore, getStore, storeKindOf, storeLocation } from '../engine/store/db';
import { startLeadWorker } from '../engine/outbox/deliver';
import { configuredDestinations } from '../engine/leads/destinations';
import { checkNewestSealed } from '../engine/leads/rotation';
import { DEFAULT_WORKER_INTERVAL_MS, workerIntervalFromEnv } from '../engine/outbox/workerInterval';

const HELP = `npm run worker — the lead outbox worker as its own process (run the servers with LEADS_WORKER=off then).
Delivers due leads every LEADS_WORKER_INTERVAL_MS (default ${DEFAULT_WORKER_INTERVAL_MS}) until SIGTERM/SIGINT. It takes no options.`;
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
// it delivers leads to buyers: a line it does not read does not start it
if (args.length) {
  console.error(`lead worker: "${args[0]}" is not read, so the worker was not started.\n${HELP}`);
  process.exit(2);
}
const interval = workerIntervalFromEnv();
if (interval.problem) {
  console.error(`lead worker: ${interval.problem}; the worker was not started`);
  process.exit(2);
}

// the brands' postbacks come from the catalog, built with the block specs
setBlockSpecs(BLOCK_SPECS);
const ring = requireLeadKey();
// Keys that cannot open the newest sealed row would fail every pending delivery one retry at a time: stop with the reason instead.
const keyProblem = await checkNewestSealed(await getStore(), ring);
if (keyProblem) {
  console.error(`lead worker: ${keyProblem}`);
  await closeStore();
  process.exit(1);
}
const brands = Object.keys(configuredDestinations());
const worker = startLeadWorker(async () => ({ db: await getStore(), kind: storeKindOf() }), {
  intervalMs: interval.ms,
  holdProcess: true,
});
console.log(
  `lead worker: ${storeKindOf()} store at ${storeLocation()}; destinations for ${brands.length ? brands.join(', ') : 'no brand (leads are stored only)'}`,
);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    void worker
      .stop()
      .then(() => closeStore())
      .then(() => process.exit(0));
  });
}
