/** Types of engine/http/requestGate.mjs (plain JavaScript so that server.mjs can import it). */
export declare const BRAND_HEADER: string;
export declare const HOST_TABLE_FILE: string;
export declare const CLIENT_BRAND: string;
export interface HostRule {
  id: string;
  host: RegExp;
}
export declare function readHostRules(distDir: string): HostRule[];
export declare function hostRouter(rules: HostRule[], max?: number): (host: string | undefined) => string | undefined;
export declare function plainPath(url: string): string;
export declare function internalPathRefused(r: {
  path: string;
  routedBrand: string | undefined;
  revalidateHeader: string | undefined;
  previewModeId: string | null;
}): boolean;
export declare function brandRequestUrl(url: string, brand: string): string | undefined;
export declare function clientDataRequest(url: string, routedBrand: string | undefined): { url: string; proxy: boolean } | undefined;
export declare function isPreviewModeId(presented: string | undefined, id: string | null): boolean;
export declare function readPreviewModeId(distDir: string): string | null;
export declare function needsProxy(r: { dev: boolean; routedBrand: string | undefined; url: string }): boolean;
export declare const PROXY_PREFIX: string;
export declare function proxiedUrl(url: string): string;
