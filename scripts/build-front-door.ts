/**
 * The front door for server.mjs: engine/frontDoor/server.ts and what it imports, with the block
 * specs its catalog is built with (blocks/generated/specs.ts: the engine imports no block), compiled
 * into one plain JavaScript module. `npm run build` writes .next/front-door.mjs after `next build`
 * (which empties .next first); `node server.mjs --dev` compiles its own copy at start, outside
 * .next (next dev writes there). Packages stay imports (node_modules is there at run time); brand
 * files and data are read at run time as before. esbuild is the compiler tsx already runs every
 * script with.
 */
import './check-node.cjs';
import { build } from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const FRONT_DOOR_FILE = join('.next', 'front-door.mjs');

export async function buildFrontDoor(outfile: string = FRONT_DOOR_FILE): Promise<void> {
  await build({
    stdin: {
      contents: "export * from './engine/frontDoor/server';\nexport { BLOCK_SPECS } from './blocks/generated/specs';\n",
      resolveDir: process.cwd(),
      sourcefile: 'front-door-entry.ts',
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    logLevel: 'warning',
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildFrontDoor();
  console.log(`front door → ${FRONT_DOOR_FILE}`);
}
