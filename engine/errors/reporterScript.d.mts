/** Types of engine/errors/reporterScript.mjs (plain JavaScript so that server.mjs can import it too). */
export declare const REPORTING_CONFIG_PATH: string;
export declare const MAX_REPORTS_PER_PAGE_VIEW: number;
export declare const REPORTER_SCRIPT: string;
