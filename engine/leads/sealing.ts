/**
 * Sensitive lead fields (date of birth, income) are encrypted at rest with AES-256-GCM under a
 * key from the environment: LEADS_ENCRYPTION_KEY, 32 bytes as 64 hex digits or base64. A
 * database dump alone does not reveal them.
 *
 * Without a key, a deployment (LOANSITES_DEPLOYMENT=production) refuses to start (see
 * requireLeadKey, called at server start); anywhere else a development key is generated into
 * data/keys/leads.key on first use and a log line says so — fine on a laptop, never in a
 * deployment. Stored values look like "v1.<iv>.<ciphertext+tag>" (base64url), so a future key
 * rotation can add "v2" without touching old rows.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const LEADS_KEY_ENV = 'LEADS_ENCRYPTION_KEY';
export const isDeployment = (env: Record<string, string | undefined> = process.env): boolean => env.LOANSITES_DEPLOYMENT === 'production';

export class MissingLeadKey extends Error {}

function parseKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32) throw new Error(`${LEADS_KEY_ENV} must be 32 bytes: 64 hex digits or 44 base64 characters (openssl rand -hex 32)`);
  return key;
}

let cached: Buffer | undefined;

/** The lead key: from the environment, else (not in a deployment) a development key file. */
export function leadKey(env: Record<string, string | undefined> = process.env, dir = join(process.cwd(), 'data', 'keys')): Buffer {
  if (cached && env === process.env) return cached;
  let key: Buffer;
  if (env[LEADS_KEY_ENV]) key = parseKey(env[LEADS_KEY_ENV]!);
  else if (isDeployment(env)) {
    throw new MissingLeadKey(
      `${LEADS_KEY_ENV} is not set. Leads hold dates of birth and incomes, which are encrypted at rest: set ${LEADS_KEY_ENV} to 32 random bytes (openssl rand -hex 32) and keep it with the database backups.`,
    );
  } else {
    const file = join(dir, 'leads.key');
    if (!existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
      console.warn(`[leads] no ${LEADS_KEY_ENV}: generated a development key in ${file} (fine locally; a deployment must set ${LEADS_KEY_ENV})`);
    }
    key = parseKey(readFileSync(file, 'utf8'));
  }
  if (env === process.env) cached = key;
  return key;
}

/** Called when the server starts: a deployment without a key stops here, with the reason. */
export function requireLeadKey(env: Record<string, string | undefined> = process.env): void {
  leadKey(env);
}

export function sealText(plain: string, key: Buffer = leadKey()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `v1.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

export function openText(sealed: string, key: Buffer = leadKey()): string {
  const [version, iv, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !body) throw new Error('Not a sealed lead value');
  const bytes = Buffer.from(body, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
}
