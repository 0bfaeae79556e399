/**
 * npm run demo:traffic — fills the local store (or DATABASE_URL) with realistic demo visits,
 * funnel events, leads and sales (engine/traffic/demoTraffic.ts), so that the console has
 * something to show. Options: --events N (default 200000), --leads N (default 4000),
 * --days N (default 30), --seed N (default 1); --reset takes the demo rows out again (and only
 * them). The brands are the catalog's US brands and the buyers the server's own (its buyer
 * documents, else the demo lender), so the console's filters and buyers page know every one.
 * Demo leads are fictional (example.com addresses, 555-01xx phones), marked environment "demo"
 * and stored already sold or unsold, so a running server never sells them; never run it against production.
 */
import './check-node.cjs';
import { parseArgs } from 'node:util';
import { BLOCK_SPECS } from '../blocks/generated/specs';
import { getCatalog } from '../engine/site/catalog';
import { getBuyers } from '../engine/sale/buyers';
import { DEMO_LENDER_ID } from '../engine/sale/demoLender';
import { closeStore, getStore, storeLocation } from '../engine/store/db';
import { resetDemoTraffic, writeDemoTraffic } from '../engine/traffic/demoTraffic';

const { values } = parseArgs({
  options: {
    reset: { type: 'boolean', default: false },
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
if (values.reset) {
  const gone = await resetDemoTraffic(db);
  console.log(`demo:traffic --reset: ${storeLocation()}: removed ${gone.leads} demo leads (with their sales), ${gone.visits} visits and ${gone.events} events`);
  await closeStore();
  process.exit(0);
}
const brands = [...getCatalog(BLOCK_SPECS).brands.values()].filter((b) => b.brand.country === 'US').map((b) => b.brand.id);
// the brands' experiments on pages with a fixed path (the demo's landings), filled with exposures
const experiments = [...getCatalog().brands.values()].flatMap((b) =>
  b.experiments.list.map((experiment) => ({ brand: b.brand.id, paths: experiment.source.routes.filter((r) => !r.includes('{')), experiment })),
);
const documents = [...getBuyers().buyers.keys()];
let last = 0;
const done = await writeDemoTraffic(db, {
  brands,
  experiments,
  buyers: documents.length ? documents : [DEMO_LENDER_ID],
  events: num('events'),
  leads: num('leads'),
  days: Math.max(1, num('days')),
  seed: num('seed'),
  onProgress: (p) => {
    if (p.events - last >= 100_000) console.log(`demo:traffic: ${(last = p.events)} events…`);
  },
});
console.log(
  `demo:traffic: ${storeLocation()}: ${done.visits} visits, ${done.events} events, ${done.leads} leads (${done.sold} sold, ${done.returned} returned, $${(done.revenueCents / 100).toFixed(2)} kept) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
await closeStore();
