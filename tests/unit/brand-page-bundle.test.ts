/**
 * The brand page's server module must load synchronously: server.mjs renders a cache miss with
 * that module's own render at once (engine/http/coldPageRender.mjs), and a database driver in its
 * graph (pg is an ES module the bundler wraps as an async module) turned the whole page module
 * into a promise, so every first render fell back to Next's slower pipeline and the start-up
 * warm-up rendered nothing. The page reaches the engine through the catalog; this walks the code
 * it imports (types left out: they vanish at build) and fails on any path to the store's
 * connections or a driver.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, type ImportEdge } from '../support/importGraph';

const root = join(__dirname, '..', '..');
const PAGE = 'pages/_brand/[brand]/[[...path]].tsx';
const FORBIDDEN_FILES = ['engine/store/db.ts', 'engine/store/liveRevisions.ts'];
const FORBIDDEN_PACKAGES = ['pg', 'better-sqlite3', 'kysely', 'ioredis', 'redis'];

describe("the brand page's server module", () => {
  it('imports no database connection or driver, through any module it runs', () => {
    const edges = importGraph(root, ['pages', 'engine', 'blocks', 'schemas']);
    const byFile = new Map<string, ImportEdge[]>();
    for (const e of edges) if (!e.typeOnly) byFile.set(e.from, [...(byFile.get(e.from) ?? []), e]);
    // breadth-first from the page, remembering how each file was reached so a failure names the chain
    const via = new Map<string, string | null>([[PAGE, null]]);
    const queue = [PAGE];
    const found: string[] = [];
    const chain = (file: string): string => {
      const parts = [file];
      for (let f = via.get(file); f; f = via.get(f)) parts.unshift(f);
      return parts.join(' → ');
    };
    while (queue.length) {
      const file = queue.shift()!;
      for (const e of byFile.get(file) ?? []) {
        if (e.to === null) {
          const pkg = e.specifier.startsWith('@') ? e.specifier.split('/').slice(0, 2).join('/') : e.specifier.split('/')[0]!;
          if (FORBIDDEN_PACKAGES.includes(pkg)) found.push(`${chain(file)} → ${e.specifier}`);
          continue;
        }
        if (via.has(e.to)) continue;
        via.set(e.to, file);
        if (FORBIDDEN_FILES.includes(e.to)) found.push(chain(e.to));
        else queue.push(e.to);
      }
    }
    expect(via.size, 'the walk reached the engine').toBeGreaterThan(20);
    expect(found).toEqual([]);
  });
});
