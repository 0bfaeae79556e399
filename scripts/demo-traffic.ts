/**
 * npm run demo:traffic — fills the local store (or DATABASE_URL) with realistic demo visits,
 * funnel events, leads and sales (engine/traffic/demoTraffic.ts), so that the console has
 * something to show. Options: --events N (default 200000), --leads N (default 4000),
 * --days N (default 30), --seed N (default 1). Demo leads are fictional (example.com addresses,
 * 555-01xx phones) and marked with consent version "demo"; never run it against production.
 */
import './check-node.cjs';
import { parseArgs } from 'node:util';
import { closeStore, getStore, storeLocation } from '../engine/store/db';
import { writeDemoTraffic } from '../engine/traffic/demoTraffic';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '200000' },
    leads: { type: 'string', default: '4000' },
    days: { type: 'string', default: '30' },
    seed: { type: 'string', default: '1' },
  },
});
const num = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, not "${values[name]}"`);
  return n;
};
const started = Date.now();
const db = await getStore();
let last = 0;
const done = await writeDemoTraffic(db, {
  events: num('events'),
  leads: num('leads'),
  days: Math.max(1, num('days')),
  seed: num('seed'),
  onProgress: (p) => {
    if (p.events - last >= 100_000) console.log(`demo:traffic: ${(last = p.events)} events…`);
  },
});
console.log(
  `demo:traffic: ${storeLocation()}: ${done.visits} visits, ${done.events} events, ${done.leads} leads (${done.sold} sold) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
await closeStore();
