/**
 * After `next build` (npm run build): every browser chunk starts with V8's explicit compile hint,
 * `//# allFunctionsCalledOnLoad` (Chrome 136+; other engines read a comment). Without it V8 compiles
 * each module's function on the main thread the moment the module runs — a third of the script
 * time of a page load under a phone's CPU (`npm run bench`). With it, a chunk's functions
 * are compiled as the chunk downloads, on a background thread. The price: functions a page never
 * calls are compiled too (React DOM's, mostly) — background work and memory, not main-thread time.
 * Idempotent: a chunk that has the hint is left as it is. The chunks' names stay (their hash is of
 * the build's output; nothing checks it), and the builds have no source maps whose lines would move.
 */
import './check-node.cjs';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/** Adds the hint to every .js file under `dir`; returns how many files were changed. */
export function addCompileHints(dir: string): number {
  let changed = 0;
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) {
      changed += addCompileHints(file);
      continue;
    }
    if (!name.endsWith('.js')) continue;
    const code = readFileSync(file, 'utf8');
    if (code.startsWith(COMPILE_HINT)) continue;
    writeFileSync(file, COMPILE_HINT + code);
    changed++;
  }
  return changed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = join(process.cwd(), '.next', 'static', 'chunks');
  console.log(`compile hints: ${addCompileHints(dir)} chunks in ${dir}`);
}
