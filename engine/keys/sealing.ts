/**
 * Sensitive lead fields (date of birth, income) and form traces are encrypted at rest with
 * AES-256-GCM under keys from the environment (engine/keys/keyFormat.mjs: LEADS_ENCRYPTION_KEYS,
 * current first, or LEADS_ENCRYPTION_KEY). A database dump alone does not reveal them.
 *
 * A sealed value names the key that sealed it: "v2.<key id>.<iv>.<ciphertext+tag>" (base64url;
 * the key id is 8 hex digits of a hash of the key, never the key). New values are sealed with the
 * current key; older keys listed after it still open what they sealed, until `npm run keys --
 * rotate` has re-sealed it with the current one. Values from before key ids ("v1.<iv>.<…>") are
 * opened by trying each key.
 *
 * Without a key, a deployment (LOANSITES_DEPLOYMENT=production) refuses to start (server.mjs,
 * requireLeadKey); anywhere else a development key is generated on first use into the user's
 * configuration directory (~/.config/loansites/leads.key, or LOANSITES_KEY_DIR) — never under
 * data/, so a copy of data/ (database and all) does not carry the key that opens it. A development
 * key left at data/keys/leads.key by older versions still opens what it sealed.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isDeployment, LEADS_KEY_ENV, LEADS_KEYS_ENV, LeadKeyError, leadKeyProblem, parseLeadKeys } from './keyFormat.mjs';

export { isDeployment, LEADS_KEY_ENV, LEADS_KEYS_ENV, LeadKeyError };

export class MissingLeadKey extends Error {}

export interface LeadKeyring {
  /** seals new values */
  current: { id: string; key: Buffer };
  /** every key that may open a value, by key id, current first */
  byId: ReadonlyMap<string, Buffer>;
}

/** A key's id: 8 hex digits of a hash of the key (a fingerprint; the key cannot be recovered from it). */
export const keyIdOf = (key: Buffer): string => createHash('sha256').update('loansites lead key\0').update(key).digest('hex').slice(0, 8);

export function keyringOf(keys: readonly Buffer[]): LeadKeyring {
  if (!keys.length) throw new MissingLeadKey('No lead key');
  const byId = new Map<string, Buffer>();
  for (const key of keys) if (!byId.has(keyIdOf(key))) byId.set(keyIdOf(key), key);
  return { current: { id: keyIdOf(keys[0]!), key: keys[0]! }, byId };
}

/** Where a development key is generated: outside the project's data/ directory. */
export const devKeyDir = (env: Record<string, string | undefined> = process.env): string =>
  env.LOANSITES_KEY_DIR || join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'loansites');

const LEGACY_DEV_KEY = join('data', 'keys', 'leads.key');

function developmentKeys(env: Record<string, string | undefined>): Buffer[] {
  const file = join(devKeyDir(env), 'leads.key');
  if (!existsSync(file)) {
    mkdirSync(devKeyDir(env), { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    console.warn(`[leads] no ${LEADS_KEY_ENV}: generated a development key in ${file} (fine locally; a deployment must set ${LEADS_KEY_ENV})`);
  }
  const keys = parseLeadKeys({ [LEADS_KEY_ENV]: readFileSync(file, 'utf8') });
  const legacy = join(process.cwd(), LEGACY_DEV_KEY);
  if (existsSync(legacy)) keys.push(...parseLeadKeys({ [LEADS_KEY_ENV]: readFileSync(legacy, 'utf8') }));
  return keys;
}

let cached: { text: string; ring: LeadKeyring } | undefined;

/** The lead keys: from the environment, else (not in a deployment) the development key. Throws with the reason when they are unusable. */
export function leadKeyring(env: Record<string, string | undefined> = process.env): LeadKeyring {
  const text = [env[LEADS_KEYS_ENV], env[LEADS_KEY_ENV], env.LOANSITES_DEPLOYMENT, devKeyDir(env), process.cwd()].join('\n');
  if (cached?.text === text) return cached.ring;
  const configured = parseLeadKeys(env); // a malformed key throws LeadKeyError, with the reason
  if (!configured.length && isDeployment(env)) throw new MissingLeadKey(leadKeyProblem(env));
  const ring = keyringOf(configured.length ? configured : developmentKeys(env));
  cached = { text, ring };
  return ring;
}

/** Called when the server and the worker start: a deployment without a key, or a malformed key, stops here with the reason. */
export function requireLeadKey(env: Record<string, string | undefined> = process.env): LeadKeyring {
  return leadKeyring(env);
}

const ringOf = (keys: Buffer | LeadKeyring): LeadKeyring => (Buffer.isBuffer(keys) ? keyringOf([keys]) : keys);

export const sealText = (plain: string, keys: Buffer | LeadKeyring = leadKeyring()): string => sealBytes(Buffer.from(plain, 'utf8'), keys);

/** Seals bytes as sealText seals text (the same format): for values already compressed, with no text encoding in between. */
export function sealBytes(plain: Buffer, keys: Buffer | LeadKeyring = leadKeyring()): string {
  const { id, key } = ringOf(keys).current;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return `v2.${id}.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

function openWith(key: Buffer, iv: string, body: string): Buffer {
  const bytes = Buffer.from(body, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]);
}

export const isSealed = (value: string): boolean => /^v1\.[\w-]+\.[\w-]+$|^v2\.[0-9a-f]{8}\.[\w-]+\.[\w-]+$/.test(value);

/** The id of the key that sealed a value (undefined for a value from before key ids). */
export const sealedKeyId = (sealed: string): string | undefined => (sealed.startsWith('v2.') ? sealed.split('.')[1] : undefined);

export const openText = (sealed: string, keys: Buffer | LeadKeyring = leadKeyring()): string => openBytes(sealed, keys).toString('utf8');

export function openBytes(sealed: string, keys: Buffer | LeadKeyring = leadKeyring()): Buffer {
  const ring = ringOf(keys);
  const parts = sealed.split('.');
  if (parts[0] === 'v2' && parts.length === 4) {
    const key = ring.byId.get(parts[1]!);
    if (!key) throw new Error(`sealed with lead key ${parts[1]}, which is not among the configured keys (${[...ring.byId.keys()].join(', ')})`);
    return openWith(key, parts[2]!, parts[3]!);
  }
  if (parts[0] === 'v1' && parts.length === 3) {
    for (const key of ring.byId.values()) {
      try {
        return openWith(key, parts[1]!, parts[2]!);
      } catch {
        // the next key may be the one
      }
    }
    throw new Error(`none of the configured lead keys (${[...ring.byId.keys()].join(', ')}) opens this value`);
  }
  throw new Error('Not a sealed lead value');
}
