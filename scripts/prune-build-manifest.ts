/**
 * After `next build` (npm run build): the browser's build manifest (.next/static/<build>/_buildManifest.js,
 * a script every page loads) keeps only the pages the browser's router can open. Next lists every
 * page and API route there, with their chunks: the console's pages run no script at all (their
 * policy allows none: engine/site/csp.mjs CONSOLE_POLICY) and the API routes are never a client-side
 * navigation (blocks/chrome/navigate.ts routes only the brand page; an API address is loaded by the
 * browser). Their entries were ~0.6 KiB gzip of every brand page's first load. The server renders
 * from .next/build-manifest.json, which is not touched. A manifest in a form this does not know is
 * left as it is.
 */
import './check-node.cjs';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

/** A page no browser router opens: the console's (no script) and the API routes. */
export const notRoutedInBrowser = (page: string): boolean => page === '/_console' || page.startsWith('/_console/') || page.startsWith('/api/');

type Manifest = Record<string, unknown> & { sortedPages: string[] };
const isManifest = (v: unknown): v is Manifest => typeof v === 'object' && v !== null && Array.isArray((v as { sortedPages?: unknown }).sortedPages);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const CALLBACK = 'self.__BUILD_MANIFEST_CB&&self.__BUILD_MANIFEST_CB()';

/**
 * The manifest script without the entries of pages no browser router opens, or undefined when the
 * script is not a manifest of the form Next 16 writes (assignments of data to `self`, then the callback).
 */
export function pruneBuildManifest(script: string): string | undefined {
  const self: Record<string, unknown> = {};
  try {
    runInNewContext(script, { self }, { timeout: 1000 });
  } catch {
    return undefined;
  }
  const manifest = self.__BUILD_MANIFEST;
  if (!isManifest(manifest)) return undefined;
  const pruned: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(self)) {
    if (key === '__BUILD_MANIFEST') {
      const kept = Object.entries(manifest).filter(([page]) => !notRoutedInBrowser(page));
      pruned[key] = { ...Object.fromEntries(kept), sortedPages: manifest.sortedPages.filter((p) => !notRoutedInBrowser(p)) };
    } else if (key === '__TURBOPACK_PAGE_BOOTSTRAP' && isRecord(value)) {
      pruned[key] = Object.fromEntries(Object.entries(value).filter(([page]) => !notRoutedInBrowser(page)));
    } else {
      pruned[key] = value;
    }
  }
  try {
    return Object.entries(pruned)
      .map(([key, value]) => `self.${key}=${JSON.stringify(value, plainData)};`)
      .join('')
      .concat(CALLBACK);
  } catch {
    return undefined;
  }
}

/** JSON.stringify's replacer that refuses what JSON would not give back as it was (functions, sets, maps, undefined). */
function plainData(_key: string, value: unknown): unknown {
  const kind = Object.prototype.toString.call(value);
  if (!['[object Object]', '[object Array]', '[object String]', '[object Number]', '[object Boolean]', '[object Null]'].includes(kind))
    throw new Error(`not data: ${kind}`);
  return value;
}

/** Prunes every build's _buildManifest.js under `staticDir` (.next/static); returns how many were rewritten. */
export function pruneBuildManifests(staticDir: string): number {
  let changed = 0;
  for (const name of readdirSync(staticDir)) {
    const file = join(staticDir, name, '_buildManifest.js');
    if (name === 'chunks' || !statSync(join(staticDir, name)).isDirectory()) continue;
    let script: string;
    try {
      script = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const pruned = pruneBuildManifest(script);
    if (pruned === undefined) {
      console.warn(`build manifest: ${file} is not in a form this knows; left as it is`);
      continue;
    }
    if (pruned === script) continue;
    writeFileSync(file, pruned);
    changed++;
  }
  return changed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = join(process.cwd(), '.next', 'static');
  console.log(`build manifest: ${pruneBuildManifests(dir)} pruned to the browser's routes in ${dir}`);
}
