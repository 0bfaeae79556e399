/** Types of engine/reactInlineScripts.mjs (plain JavaScript so that server.mjs can import it too). */
export declare const REACT_TIMING_SCRIPT: string;
export declare const REACT_BOUNDARY_RUNTIME: string;
export declare const MAX_OUTLINED_BOUNDARIES: number;
export declare const reactBoundaryScripts: () => string[];
