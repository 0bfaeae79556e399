// @ts-check
/**
 * The lead keys' configuration, shared by server.mjs (which checks it before Next loads, so a
 * bad key stops the start with the reason instead of a bare 500 on every request) and
 * engine/keys/sealing.ts (which uses the keys).
 *
 * LEADS_ENCRYPTION_KEYS: comma-separated keys, the current one first, older ones after it (they
 * only open what they sealed until `npm run keys -- rotate` has re-sealed it). Without it,
 * LEADS_ENCRYPTION_KEY (one key, or the same comma list). Each key is 32 bytes: 64 hex digits or
 * 44 base64 characters. A message never repeats a key.
 *
 * Plain JavaScript typed with JSDoc, which TypeScript reads (tsconfig allowJs; no .d.mts to keep in step): server.mjs checks the keys with it on plain Node, before Next loads.
 */

export const LEADS_KEY_ENV = 'LEADS_ENCRYPTION_KEY';
export const LEADS_KEYS_ENV = 'LEADS_ENCRYPTION_KEYS';

export class LeadKeyError extends Error {}

/** A deployment never generates a development key: it starts only with configured keys. */
export const isDeployment = (/** @type {Record<string, string | undefined>} */ env) => env.LOANSITES_DEPLOYMENT === 'production';

/** @param {Record<string, string | undefined>} env */
const variableOf = (env) => (env[LEADS_KEYS_ENV]?.trim() ? LEADS_KEYS_ENV : LEADS_KEY_ENV);

/**
 * The configured keys, current first; [] when none is configured.
 * @param {Record<string, string | undefined>} env
 * @returns {Buffer[]}
 */
export function parseLeadKeys(env) {
  const name = variableOf(env);
  const texts = (env[name] ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return texts.map((text, i) => {
    const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : undefined;
    if (key?.length === 32) return key;
    const which = texts.length > 1 ? `${name} (key ${i + 1} of ${texts.length})` : name;
    throw new LeadKeyError(
      `${which} is not a valid key (${text.length} characters): a key is 32 random bytes written as 64 hex digits or 44 base64 characters (openssl rand -hex 32).`,
    );
  });
}

/**
 * Why the server cannot start with this environment's lead keys, or undefined when it can:
 * a malformed key anywhere, or no key at all in a deployment.
 * @param {Record<string, string | undefined>} env
 * @returns {string | undefined}
 */
export function leadKeyProblem(env) {
  try {
    if (parseLeadKeys(env).length || !isDeployment(env)) return undefined;
    return `${LEADS_KEY_ENV} is not set. Leads hold dates of birth and incomes, which are encrypted at rest: set ${LEADS_KEY_ENV} to 32 random bytes (openssl rand -hex 32) and keep it with the database backups.`;
  } catch (err) {
    return /** @type {Error} */ (err).message;
  }
}
