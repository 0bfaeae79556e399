/**
 * Which content back end this process uses, and its settings (SPEC §7, §9):
 * the embedded store by default; Strapi when CONTENT_GRAPHQL_URL and CONTENT_GRAPHQL_TOKEN are
 * set. Time-out 5000 ms in production, 100000 ms otherwise; publication state LIVE in
 * production, PREVIEW otherwise or in draft mode.
 */
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

let embedded: Promise<ContentSource> | undefined;
/**
 * The embedded store, loaded with the first query: its module brings the front-matter parser
 * (gray-matter, js-yaml, esprima) and a compiled schema, which a server that has not read
 * content yet (most pages read none) does not hold (tests/unit/server-start-modules.test.ts).
 */
const embeddedSource: ContentSource = {
  kind: 'embedded',
  list: async (collection, query) => {
    embedded ??= import('./embedded').then((m) => m.createEmbeddedSource(m.embeddedIndex()));
    return (await embedded).list(collection, query);
  },
};

let source: ContentSource | undefined;
export function contentSource(): ContentSource {
  if (source) return source;
  const url = process.env.CONTENT_GRAPHQL_URL;
  const token = process.env.CONTENT_GRAPHQL_TOKEN;
  source = url && token ? createStrapiClient({ url, token, timeoutMs: contentTimeoutMs() }) : embeddedSource;
  return source;
}
