/** Types of engine/csp.mjs (plain JavaScript so that server.mjs can import it too). */
export interface PagePolicy {
  tagManager?: boolean;
  pixel?: boolean;
  connect?: string[];
  scripts?: string[];
  frames?: string[];
}
export declare const sha256Source: (text: string) => string;
export declare const INLINE_SCRIPT_HASHES: string[];
export declare const TAG_MANAGER: { script: string[]; connect: string[]; img: string[] };
export declare const PIXEL: { script: string[]; connect: string[]; img: string[] };
export declare function contentSecurityPolicy(page?: PagePolicy, extraHashes?: string[], errorOrigin?: string | undefined): string;
export declare function errorReportOrigin(dsn?: string | undefined): string | undefined;
export declare const BUILD_HASHES_ENV: string;
export declare function inlineScripts(html: string): string[];
export declare function originOf(url: string | undefined): string | undefined;
export declare function cspHeaderName(mode: string | undefined): 'Content-Security-Policy' | 'Content-Security-Policy-Report-Only' | undefined;
export declare const CONSOLE_POLICY: string;
