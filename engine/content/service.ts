/**
 * Which content back end this process uses, and its settings (SPEC §7, §9):
 * the embedded store by default; Strapi when CONTENT_GRAPHQL_URL and CONTENT_GRAPHQL_TOKEN are
 * set. Time-out 5000 ms in production, 100000 ms otherwise; publication state LIVE in
 * production, PREVIEW otherwise or in draft mode.
 */
import { join } from 'node:path';
import { createEmbeddedSource, loadContent, type ContentIndex } from './embedded';
import { createStrapiClient } from './strapi';
import type { ContentSource, PublicationState } from './types';

const production = () => process.env.NODE_ENV === 'production';

export const contentTimeoutMs = (): number => Number(process.env.CONTENT_TIMEOUT_MS) || (production() ? 5000 : 100000);

export const publicationState = (draftMode = false): PublicationState => (draftMode || !production() ? 'PREVIEW' : 'LIVE');

/**
 * Where a browser would send GraphQL requests: in local mode (no CMS configured) through this
 * site's own origin, deployed straight to the public CMS address.
 */
export function browserContentUrl(env: Record<string, string | undefined> = process.env): string {
  return env.NEXT_PUBLIC_CONTENT_GRAPHQL_URL || '/api/content/graphql';
}

let index: ContentIndex | undefined;
export function embeddedIndex(): ContentIndex {
  if (!index) {
    index = loadContent(join(/* turbopackIgnore: true */ process.env.LOANSITES_ROOT || process.cwd(), 'content'));
    for (const p of index.problems) console.error(`[content] ${p.file}: ${p.message}`);
  }
  return index;
}

let source: ContentSource | undefined;
export function contentSource(): ContentSource {
  if (source) return source;
  const url = process.env.CONTENT_GRAPHQL_URL;
  const token = process.env.CONTENT_GRAPHQL_TOKEN;
  source = url && token ? createStrapiClient({ url, token, timeoutMs: contentTimeoutMs() }) : createEmbeddedSource(embeddedIndex());
  return source;
}
