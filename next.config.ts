import { execFileSync } from 'node:child_process';
import type { NextConfig } from 'next';
import { join } from 'node:path';

/**
 * The ISR page cache. REDIS_URL set (several instances, deploy/): in Redis, shared by every
 * instance (engine/cache/redisPageCache.mjs), and Next keeps no in-memory copy of its own
 * (cacheMaxMemorySize: 0) — a private copy would go on serving a page another instance has
 * revalidated. Otherwise one instance's cache in memory, bounded by size, notFound never stored
 * (engine/cache/boundedPageCache.mjs; nothing written to .next). Chosen when the server starts,
 * so one build serves both ways: in production server.mjs makes the same choice on the build's
 * resolved configuration (it does not compile this file again).
 */
const pageCache: Partial<NextConfig> = {
  cacheHandler: join(process.cwd(), process.env.REDIS_URL ? 'engine/cache/redisPageCache.mjs' : 'engine/cache/boundedPageCache.mjs'),
  cacheMaxMemorySize: 0,
};

/**
 * The release error reports carry: the git commit the build is made from. LOANSITES_RELEASE
 * given to the build wins (a Docker build without .git passes it in); "unknown" without either.
 */
function gitCommit(): string {
  if (process.env.LOANSITES_RELEASE?.trim()) return process.env.LOANSITES_RELEASE.trim();
  try {
    return (
      execFileSync('git', ['rev-parse', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() || 'unknown'
    );
  } catch {
    return 'unknown';
  }
}

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Next would hash every page's HTML on every response for an ETag (measured: ~6% of a cache
  // hit's CPU). Pages carry Cache-Control for the CDN; conditional requests are not worth it.
  generateEtags: false,
  // Inlined at build into server and browser code (engine/errors/report.ts, pages/_document.tsx).
  env: { LOANSITES_RELEASE: gitCommit() },
  // Brand files, shared layouts, the derived city table and the file schemas (engine/validate/schema.ts) are read at run time.
  outputFileTracingIncludes: { '/**': ['./brands/**/*.json', './content/**/*', './data/generated/*.json', './schemas/*.schema.json'] },
  ...pageCache,
  // Next would load every route's server bundle at start (the console's pages, every API route,
  // the local GraphQL endpoint with its library, the query builder's own module tree): measured
  // ~10 MiB of an idle server's heap for routes most instances seldom or never serve. Each route
  // loads with its first request instead.
  experimental: { preloadEntriesOnStart: false },
  // The browser's `process`: a few no-ops in place of Next's emulation of Node's (see the module).
  turbopack: { resolveAlias: { 'next/dist/compiled/process': { browser: './blocks/chrome/processShim.cjs' } } },
  // npm test runs `tsc --noEmit -p .` (every file Next would check, and more) beside the build:
  // the build need not check the same types a second time. A build on its own still checks them.
  typescript: { ignoreBuildErrors: process.env.LOANSITES_BUILD_SKIP_TYPECHECK === '1' },
  // No headers(), rewrites or proxy: server.mjs routes every request and sets every header it
  // adds (engine/frontDoor/frontDoor.ts decides, per page, its Content-Security-Policy and
  // Permissions-Policy).
};

export default config;
