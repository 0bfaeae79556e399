/** Types of engine/errors/dsn.mjs (plain JavaScript so that server.mjs and engine/csp.mjs can import it). */
export interface Dsn {
  /** https://host[:port][/path]/api/{project}/envelope/ */
  envelopeUrl: string;
  publicKey: string;
  projectId: string;
  /** the DSN as written, for the envelope header */
  dsn: string;
  /** the DSN host's origin, what the browser's policy must allow */
  origin: string;
}
export declare function parseDsn(text: string | undefined): Dsn | undefined;
export declare function browserEnvelopeUrl(dsn: Dsn): string;
