import type { NextConfig } from 'next';

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Brand files, shared layouts and the derived city table are read at run time.
  outputFileTracingIncludes: { '/**': ['./brands/**/*.json', './content/**/*', './data/generated/*.json'] },
  // LOANSITES_ISR_MEMORY=1 keeps regenerated pages in memory only (neither written to nor read
  // from .next): the end-to-end tests run two servers on one build with different content back ends.
  experimental: { isrFlushToDisk: process.env.LOANSITES_ISR_MEMORY !== '1' },
  // Security headers are set by server.mjs on every response (the proxy's own pages included).
};

export default config;
