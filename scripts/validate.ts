/**
 * npm run validate: check every brand file, shared layout and buyer file (buyers/, or
 * LOANSITES_BUYERS_DIR); print each problem as
 * "file:line:col /pointer: message" and exit 1 when there is any.
 * With --allow-broken (used by the build) problems are printed but the exit is 0: the broken
 * brand is left out at run time and the others still build and serve.
 */
import { buildCatalog, readSources } from '../engine/catalog';
import { buildBuyerCatalog, readBuyerSources } from '../engine/sale/buyers';

const allowBroken = process.argv.includes('--allow-broken');
const { brands, layouts } = readSources();
const catalog = buildCatalog(brands, layouts);
for (const line of catalog.problems) console.error(line);
const ok = catalog.brands.size;
console.log(
  `validate: ${ok} brand${ok === 1 ? '' : 's'} valid, ${catalog.broken.size} broken, ${layouts.length} shared layouts, ${catalog.problems.length} problem${catalog.problems.length === 1 ? '' : 's'}`,
);
if (catalog.broken.size) console.log(`validate: left out: ${[...catalog.broken.keys()].join(', ')}`);
const buyers = buildBuyerCatalog(readBuyerSources(), new Set([...catalog.brands.keys(), ...catalog.broken.keys()]));
for (const line of buyers.problems) console.error(line);
console.log(`validate: ${buyers.buyers.size} buyer${buyers.buyers.size === 1 ? '' : 's'} valid, ${buyers.broken.size} broken`);
if (buyers.broken.size) console.log(`validate: buyers left out: ${[...buyers.broken.keys()].join(', ')}`);
if ((catalog.problems.length || buyers.problems.length) && !allowBroken) process.exit(1);
