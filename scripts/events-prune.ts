/** npm run events:prune — deletes raw funnel events and experiment exposures past EVENTS_RETENTION_DAYS (default 90) now; the hourly rollups stay. */
import './check-node.cjs';
import { closeStore, getStore, storeLocation } from '../engine/store/db';
import { eventsRetentionDays } from '../engine/store/traffic';
import { pruneOnce } from '../engine/traffic/pruneJob';

const n = await pruneOnce(await getStore());
console.log(
  `events:prune: ${storeLocation()}: deleted ${n.events} events (${n.partitions} day partitions dropped) ${n.visits} visits and ${n.exposures} experiment exposures older than ${eventsRetentionDays()} days`,
);
await closeStore();
