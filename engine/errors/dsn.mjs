// @ts-check
/**
 * A Sentry DSN ("https://KEY@host[:port][/path]/PROJECT") → where envelopes go. Plain
 * JavaScript: server.mjs and engine/site/csp.mjs (the policy's connect-src) read it too.
 * Pure; table tests in tests/unit/error-reports.test.ts.
 *
 * Typed with JSDoc, which TypeScript reads (tsconfig allowJs; no .d.mts to keep in step).
 */

/**
 * @typedef {object} Dsn
 * @property {string} envelopeUrl https://host[:port][/path]/api/{project}/envelope/
 * @property {string} publicKey
 * @property {string} projectId
 * @property {string} dsn the DSN as written, for the envelope header
 * @property {string} origin the DSN host's origin, what the browser's policy must allow
 */

/** @param {string | undefined} text @returns {Dsn | undefined} */
export function parseDsn(text) {
  if (!text?.trim()) return undefined;
  /** @type {URL} */
  let url;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.username) return undefined;
  const parts = url.pathname.split('/').filter(Boolean);
  const projectId = parts.pop();
  if (!projectId || !/^\d+$/.test(projectId)) return undefined;
  const prefix = parts.length ? `/${parts.join('/')}` : '';
  return {
    envelopeUrl: `${url.protocol}//${url.host}${prefix}/api/${projectId}/envelope/`,
    publicKey: decodeURIComponent(url.username),
    projectId,
    dsn: text.trim(),
    origin: url.origin,
  };
}

/**
 * The envelope endpoint a browser posts to, authenticated in the query as Sentry's browser SDK
 * does (a browser cannot send X-Sentry-Auth without a CORS preflight).
 * @param {Dsn} dsn
 */
export function browserEnvelopeUrl(dsn) {
  return `${dsn.envelopeUrl}?sentry_key=${encodeURIComponent(dsn.publicKey)}&sentry_version=7&sentry_client=loansites-browser%2F1.0`;
}
