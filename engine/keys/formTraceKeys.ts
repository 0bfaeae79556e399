/**
 * Where the form-trace RSA key pair comes from (server only). In order:
 *
 * 1. Environment: `FORM_TRACE_PRIVATE_KEY` and/or `FORM_TRACE_PUBLIC_KEY`, PEM text with real
 *    newlines or `\n` escapes. The public key alone is enough to render pages that encrypt;
 *    reading traces needs the private key; given only the private key, the public one is derived.
 * 2. Files `data/keys/form-trace.key` (PKCS#8 PEM) and `data/keys/form-trace.pub` (SPKI PEM),
 *    written by `npm run keys`; used only when neither variable is set.
 * 3. Development only: with nothing configured, a dev pair is generated into data/keys/ on
 *    first use and a log line says so. In a deployment (`LOANSITES_DEPLOYMENT=production`)
 *    a missing key throws a message saying what to set — when trace
 *    capture asks for a key, never at import time.
 *
 * New pairs are RSA 3072 (NIST SP 800-57: good beyond 2030); RSA 2048 to 4096 is accepted.
 */
import { randomBytes, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FORM_TRACE_MAX_RSA_BITS, FORM_TRACE_MIN_RSA_BITS } from '../browser/formTrace/format';

/** Modulus size of pairs made by `npm run keys` and the dev fallback. */
export const FORM_TRACE_RSA_BITS = 3072;
export const PRIVATE_KEY_ENV = 'FORM_TRACE_PRIVATE_KEY';
export const PUBLIC_KEY_ENV = 'FORM_TRACE_PUBLIC_KEY';
export const PRIVATE_KEY_FILE = 'form-trace.key';
export const PUBLIC_KEY_FILE = 'form-trace.pub';

export const defaultKeyDir = (): string => join(process.cwd(), 'data', 'keys');

/** Where to look; every field defaults to the real process (tests pass their own). */
export interface FormTraceKeySource {
  env?: Record<string, string | undefined>;
  dir?: string;
  log?: (line: string) => void;
}

export interface FormTraceKeys {
  /** SPKI PEM: what the apply page encrypts with. */
  publicKey: string;
  /** PKCS#8 PEM: what POST /api/trace decrypts with; absent when only a public key is configured. */
  privateKey?: string;
  /** Where the pair came from, for log lines: a variable name, a file, or "generated dev key". */
  from: string;
}

export interface KeyPairPem {
  publicKey: string;
  privateKey: string;
}

export function generateFormTraceKeyPair(bits = FORM_TRACE_RSA_BITS): KeyPairPem {
  return generateKeyPairSync('rsa', {
    modulusLength: bits,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

const unescapePem = (text: string): string => text.replace(/\\n/g, '\n').trim() + '\n';

function checkRsaSize(key: KeyObject, label: string): void {
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa' || bits < FORM_TRACE_MIN_RSA_BITS || bits > FORM_TRACE_MAX_RSA_BITS) {
    throw new Error(
      `${label} must be an RSA key of ${FORM_TRACE_MIN_RSA_BITS} to ${FORM_TRACE_MAX_RSA_BITS} bits (it is ${key.asymmetricKeyType ?? 'unknown'}${bits ? ` ${bits}` : ''}); make one with npm run keys`,
    );
  }
}

/** A private key PEM, parsed, checked (RSA, size) and re-exported as PKCS#8. */
export function checkedPrivateKey(pem: string, label: string): string {
  let key: KeyObject;
  try {
    key = createPrivateKey(unescapePem(pem));
  } catch (err) {
    throw new Error(`${label} is not a PEM private key: ${(err as Error).message}`);
  }
  checkRsaSize(key, label);
  return key.export({ type: 'pkcs8', format: 'pem' }) as string;
}

/** A public key PEM (or the public half of a private key PEM), checked and exported as SPKI. */
export function checkedPublicKey(pem: string, label: string): string {
  let key: KeyObject;
  try {
    key = createPublicKey(unescapePem(pem));
  } catch (err) {
    throw new Error(`${label} is not a PEM public key: ${(err as Error).message}`);
  }
  checkRsaSize(key, label);
  return key.export({ type: 'spki', format: 'pem' }) as string;
}

/** The pair from two optional PEMs; a public key that does not match the private key is refused. */
function pairOf(privatePem: string | undefined, publicPem: string | undefined, labels: { private: string; public: string }): Omit<FormTraceKeys, 'from'> {
  const privateKey = privatePem === undefined ? undefined : checkedPrivateKey(privatePem, labels.private);
  const derived = privateKey === undefined ? undefined : checkedPublicKey(privateKey, labels.private);
  const publicKey = publicPem === undefined ? derived! : checkedPublicKey(publicPem, labels.public);
  if (derived !== undefined && derived !== publicKey) {
    throw new Error(
      `${labels.public} does not belong to ${labels.private}: traces sealed with it could never be read. Set both from the same npm run keys run`,
    );
  }
  return privateKey === undefined ? { publicKey } : { publicKey, privateKey };
}

const readIfExists = (path: string): string | undefined => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);

/** Anywhere but a deployment (LOANSITES_DEPLOYMENT=production): `npm start` on a laptop is production mode, and must still need nothing. */
const devKeysAllowed = (env: Record<string, string | undefined>): boolean => env.LOANSITES_DEPLOYMENT !== 'production';

/**
 * Writes a pair as dir/form-trace.key (mode 600) and dir/form-trace.pub. Without `force` it
 * never replaces a key: the private key is linked into place, which fails if one exists
 * (also when two dev servers race), and then `written` is false.
 */
export function writeFormTraceKeyPair(
  dir: string,
  pair: KeyPairPem,
  { force = false } = {},
): { written: boolean; privateKeyPath: string; publicKeyPath: string } {
  const privateKeyPath = join(dir, PRIVATE_KEY_FILE);
  const publicKeyPath = join(dir, PUBLIC_KEY_FILE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = (path: string, text: string, mode: number) => {
    const tempPath = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tempPath, text, { mode, flag: 'wx' });
    return tempPath;
  };
  const tempPrivate = temp(privateKeyPath, pair.privateKey, 0o600);
  const tempPublic = temp(publicKeyPath, pair.publicKey, 0o644);
  try {
    if (force) {
      renameSync(tempPrivate, privateKeyPath);
      renameSync(tempPublic, publicKeyPath);
      return { written: true, privateKeyPath, publicKeyPath };
    }
    try {
      linkSync(tempPrivate, privateKeyPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { written: false, privateKeyPath, publicKeyPath };
      throw err;
    }
    renameSync(tempPublic, publicKeyPath);
    return { written: true, privateKeyPath, publicKeyPath };
  } finally {
    // (temp files beside the keys: nothing for the bundler's file tracing to include)
    for (const path of [tempPrivate, tempPublic]) if (existsSync(/*turbopackIgnore: true*/ path)) unlinkSync(/*turbopackIgnore: true*/ path);
  }
}

/** The key pair, from the environment, the key files, or (development) a generated dev pair. */
export function loadFormTraceKeys({ env = process.env, dir = defaultKeyDir(), log = (line) => console.warn(line) }: FormTraceKeySource = {}): FormTraceKeys {
  const envPrivate = env[PRIVATE_KEY_ENV] || undefined;
  const envPublic = env[PUBLIC_KEY_ENV] || undefined;
  if (envPrivate !== undefined || envPublic !== undefined) {
    const from = envPrivate !== undefined ? PRIVATE_KEY_ENV : PUBLIC_KEY_ENV;
    return { ...pairOf(envPrivate, envPublic, { private: PRIVATE_KEY_ENV, public: PUBLIC_KEY_ENV }), from };
  }
  const privatePath = join(dir, PRIVATE_KEY_FILE);
  const publicPath = join(dir, PUBLIC_KEY_FILE);
  const shown = (path: string) => relative(process.cwd(), path) || path;
  const filePrivate = readIfExists(privatePath);
  const filePublic = readIfExists(publicPath);
  if (filePrivate !== undefined || filePublic !== undefined) {
    return {
      ...pairOf(filePrivate, filePublic, { private: shown(privatePath), public: shown(publicPath) }),
      from: shown(filePrivate !== undefined ? privatePath : publicPath),
    };
  }
  if (!devKeysAllowed(env)) {
    throw new Error(
      `Form trace capture needs an RSA key pair and none is configured: set ${PRIVATE_KEY_ENV} (servers that receive POST /api/trace) and ${PUBLIC_KEY_ENV} (PEM; \\n escapes allowed), ` +
        `or put the files ${shown(privatePath)} / ${shown(publicPath)} in place. Make a pair with npm run keys.`,
    );
  }
  const { written } = writeFormTraceKeyPair(dir, generateFormTraceKeyPair());
  const pair = pairOf(readFileSync(privatePath, 'utf8'), undefined, { private: shown(privatePath), public: shown(publicPath) });
  if (written)
    log(
      `[form-trace] No form trace key configured: generated a development RSA ${FORM_TRACE_RSA_BITS} key pair in ${shown(dir)}/ (not for production; see npm run keys).`,
    );
  return { ...pair, from: `generated dev key ${shown(privatePath)}` };
}

let cached: FormTraceKeys | undefined;
const processKeys = (): FormTraceKeys => (cached ??= loadFormTraceKeys());

/** The public key PEM the apply page encrypts with (loaded once per process). */
export function formTracePublicKey(): string {
  return processKeys().publicKey;
}

/** The private key PEM POST /api/trace decrypts with (loaded once per process). */
export function formTracePrivateKey(): string {
  const keys = processKeys();
  if (!keys.privateKey)
    throw new Error(`Only a public form trace key is configured (${keys.from}); set ${PRIVATE_KEY_ENV} on servers that receive POST /api/trace`);
  return keys.privateKey;
}
