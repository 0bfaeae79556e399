/** npm run events:prune — deletes raw funnel events and experiment exposures past EVENTS_RETENTION_DAYS (default 90) now; the hourly rollups stay. */
import './check-node.cjs';
import { closeStore, getStore, storeLocation } from '../engine/store/db';
import { eventsRetentionDays } from '../engine/store/traffic';
import { pruneOnce } from '../engine/traffic/pruneJob';
import { takesNoOptions } from './cliFormat';

// it deletes: an option it does not have (--help, a --days it does not read) must not run it
const HELP = `npm run events:prune — deletes the raw funnel events, visits and experiment exposures older than EVENTS_RETENTION_DAYS (now ${eventsRetentionDays()}) days; the hourly rollups stay. It takes no options: set EVENTS_RETENTION_DAYS to keep more or fewer days.`;
takesNoOptions('events:prune', HELP, 'deleted');

const n = await pruneOnce(await getStore());
console.log(
  `events:prune: ${storeLocation()}: deleted ${n.events} events (${n.partitions} day partitions dropped) ${n.visits} visits and ${n.exposures} experiment exposures older than ${eventsRetentionDays()} days`,
);
await closeStore();
