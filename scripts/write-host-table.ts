/**
 * After `next build` (npm run build): the build's host table, `.next/loansites-host-table.json`,
 * from the same brand files and the same catalog next.config.ts gave the build. server.mjs reads
 * it at start to name each request's brand (engine/hostRoutes.ts); without it every page request
 * goes through proxy.ts — slower, same answers.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog, readSources } from '../engine/catalog';
import { hostTable } from '../engine/hostRoutes';
import { HOST_TABLE_FILE } from '../engine/http/requestGate.mjs';

const { brands, layouts } = readSources({ extraDir: '' });
const table = hostTable(buildCatalog(brands, layouts));
const file = join(process.cwd(), '.next', HOST_TABLE_FILE);
writeFileSync(file, JSON.stringify({ brands: table }, null, 1) + '\n');
console.log(`host table: ${table.length} brands → ${file}`);
