import { execFileSync } from 'node:child_process';
import type { NextConfig } from 'next';
import { join } from 'node:path';

/**
 * REDIS_URL set (several instances, deploy/): the ISR page cache lives in Redis, shared by
 * every instance (engine/cache/redisPageCache.mjs), and Next keeps no in-memory copy of its own
 * (cacheMaxMemorySize: 0) — a private copy would go on serving a page another instance has
 * revalidated. Read when the server starts, so one build serves both ways.
 */
const sharedPageCache: Partial<NextConfig> = process.env.REDIS_URL
  ? { cacheHandler: join(process.cwd(), 'engine/cache/redisPageCache.mjs'), cacheMaxMemorySize: 0 }
  : {};

/**
 * The release error reports carry: the git commit the build is made from. LOANSITES_RELEASE
 * given to the build wins (a Docker build without .git passes it in); "unknown" without either.
 */
function gitCommit(): string {
  if (process.env.LOANSITES_RELEASE?.trim()) return process.env.LOANSITES_RELEASE.trim();
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() || 'unknown';
  } catch {
    return 'unknown';
  }
}

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Inlined at build into server and browser code (engine/errors/report.ts, pages/_document.tsx).
  env: { LOANSITES_RELEASE: gitCommit() },
  // Brand files, shared layouts and the derived city table are read at run time.
  outputFileTracingIncludes: { '/**': ['./brands/**/*.json', './content/**/*', './data/generated/*.json'] },
  // LOANSITES_ISR_MEMORY=1 keeps regenerated pages in memory only (neither written to nor read
  // from .next): the end-to-end tests run two servers on one build with different content back ends.
  experimental: { isrFlushToDisk: process.env.LOANSITES_ISR_MEMORY !== '1' },
  ...sharedPageCache,
  // Security headers are set by server.mjs on every response (the proxy's own pages included);
  // the Content-Security-Policy by engine/csp.mjs, per page by proxy.ts.
};

export default config;
