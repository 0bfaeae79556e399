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

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Brand files, shared layouts and the derived city table are read at run time.
  outputFileTracingIncludes: { '/**': ['./brands/**/*.json', './content/**/*', './data/generated/*.json'] },
  // LOANSITES_ISR_MEMORY=1 keeps regenerated pages in memory only (neither written to nor read
  // from .next): the end-to-end tests run two servers on one build with different content back ends.
  experimental: { isrFlushToDisk: process.env.LOANSITES_ISR_MEMORY !== '1' },
  ...sharedPageCache,
  // Security headers are set by server.mjs on every response (the proxy's own pages included).
};

export default config;
