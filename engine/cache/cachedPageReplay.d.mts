/** Types of engine/cache/cachedPageReplay.mjs (plain JavaScript: server.mjs imports it unbundled). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PageCacheStore } from './boundedPageCache.mjs';

export interface Candidate {
  key: string;
  host: string;
  head: boolean;
}
/** The internal page a request is routed to (engine/http/requestPath.ts internalPath, no search) and its normalised host. */
export interface Route {
  page: string;
  host: string;
}
export type Headers = Record<string, string | string[] | number>;
export declare function acceptsGzip(header: string | undefined): boolean;
export declare function createCachedPageReplay(options?: { enabled?: boolean; now?: () => number; store?: () => PageCacheStore | undefined }): {
  handle(req: IncomingMessage, res: ServerResponse, route: Route | undefined, next: () => unknown): unknown;
  candidate(req: IncomingMessage, route: Route | undefined): Candidate | undefined;
  serve(req: IncomingMessage, res: ServerResponse, c: Candidate): boolean;
  record(c: Candidate, status: number, headers: Headers): void;
};
