/**
 * npm run validate: check every brand file, shared layout and buyer file (buyers/, or
 * LOANSITES_BUYERS_DIR); print each problem as
 * "file:line:col /pointer: message" and exit 1 when there is any.
 * With --allow-broken (used by the build) problems are printed but the exit is 0: the broken
 * brand is left out at run time and the others still build and serve. A brand's telephone that
 * is no number of its country, a premium-rate one or one with an extension
 * (engine/site/brandChecks/telephone.ts) is printed the same way, but the brand is served: the
 * server does not check telephones, so a deployment's build stops on one, --allow-broken or not.
 * With --production it also refuses what must not reach borrowers but is fine locally:
 * fictional phone numbers, example.com addresses, placeholder ids and logos
 * (engine/validate/placeholders.ts). A deployment (LOANSITES_DEPLOYMENT=production, as
 * deploy/Dockerfile's build stage sets it) always checks so, --allow-broken or not: the build's
 * first step is this script, so a deployment's build stops on a placeholder, while a local or CI
 * `npm run build` of the sample brands goes on.
 */
import './check-node.cjs';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog, isPartFile, projectRoot, readSources } from '../engine/site/catalog';
import { isDeployment } from '../engine/keys/keyFormat.mjs';
import { positionAt } from '../engine/validate/locate';
import { isPlaceholderLogo, placeholdersInBrandText } from '../engine/validate/placeholders';
import { telephoneProblemsIn } from '../engine/site/brandChecks/telephone';
import { buildBuyerCatalog, readBuyerSources } from '../engine/sale/buyers';
import { BLOCK_SPECS } from '../blocks/generated/specs';

const USAGE = `usage: npm run validate [-- --production] [-- --allow-broken]
  checks every file in brands/ (layouts and parts too) and the buyer files, and prints each problem as file:line:col /pointer: message
  --production   also refuses placeholders (fictional phone numbers, example.com addresses, placeholder ids and logos)
  --allow-broken prints the problems but exits 0 (the build: a broken brand is left out)`;
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
// a mistyped --production would otherwise pass what it exists to refuse, and say all is valid
const unread = args.find((a) => a !== '--allow-broken' && a !== '--production');
if (unread !== undefined) {
  console.error(
    unread.startsWith('-')
      ? `validate: unknown option ${unread}; nothing was checked.\n${USAGE}`
      : `validate: "${unread}": validate checks every brand file at once and takes no file name; run it without one (each problem names its file).\n${USAGE}`,
  );
  process.exit(2);
}
const allowBroken = process.argv.includes('--allow-broken');
const deployment = isDeployment(process.env);
const production = process.argv.includes('--production') || deployment;
const { brands, layouts } = readSources();
const catalog = buildCatalog(brands, layouts, BLOCK_SPECS);
for (const line of catalog.problems) console.error(line);
const ok = catalog.brands.size;
console.log(
  `validate: ${ok} brand${ok === 1 ? '' : 's'} valid, ${catalog.broken.size} broken, ${layouts.filter((l) => !isPartFile(l.file)).length} shared layouts, ${layouts.filter((l) => isPartFile(l.file)).length} shared parts, ${catalog.problems.length} problem${catalog.problems.length === 1 ? '' : 's'}`,
);
if (catalog.broken.size) console.log(`validate: left out: ${[...catalog.broken.keys()].join(', ')}`);

// The brands' telephones, beside the catalog: the server does not check them (the phone metadata
// stays out of its start-up), so a wrong number stops a deployment's build here, and the studio
// refuses to publish one (engine/site/brandChecks/telephone.ts).
let telephones = 0;
for (const { file, text } of brands) {
  for (const p of telephoneProblemsIn(file, text)) {
    console.error(p.text);
    telephones++;
  }
}
if (telephones) console.log(`validate: ${telephones} brand telephone${telephones === 1 ? '' : 's'} to correct`);

let placeholders = 0;
if (production) {
  for (const { file, text } of [...brands, ...layouts]) {
    for (const p of placeholdersInBrandText(file, text)) {
      console.error(`${p.file}:${p.position.line}:${p.position.column} ${p.pointer || '/'}: ${p.message}`);
      placeholders++;
    }
    const logo = /"logo":\s*"(\/[^"]+)"/.exec(text);
    const path = logo ? join(projectRoot(), 'public', logo[1]!) : undefined;
    if (logo && path && existsSync(path) && isPlaceholderLogo(readFileSync(path, 'utf8'))) {
      const pos = positionAt(text, logo.index + logo[0].indexOf('"/'));
      console.error(
        `${file}:${pos.line}:${pos.column} /organization/logo: public${logo[1]} is a placeholder logo; give the brand's real one (fine for local development)`,
      );
      placeholders++;
    }
  }
  console.log(`validate --production: ${placeholders} placeholder${placeholders === 1 ? '' : 's'}`);
  if (placeholders && deployment)
    console.error('validate: a deployment (LOANSITES_DEPLOYMENT=production) is not built with placeholders; give the real values above');
}
const buyers = buildBuyerCatalog(readBuyerSources(), new Set([...catalog.brands.keys(), ...catalog.broken.keys()]));
for (const line of buyers.problems) console.error(line);
console.log(`validate: ${buyers.buyers.size} buyer${buyers.buyers.size === 1 ? '' : 's'} valid, ${buyers.broken.size} broken`);
if (buyers.broken.size) console.log(`validate: buyers left out: ${[...buyers.broken.keys()].join(', ')}`);
if (((catalog.problems.length || buyers.problems.length || telephones) && !allowBroken) || placeholders || (telephones && deployment)) process.exit(1);
