/**
 * Console passwords, hashed with scrypt from node:crypto: a memory-hard function (as argon2id
 * is) that ships with Node, so no native add-on to build on every machine and image. Stored as
 * "scrypt$N$r$p$salt$hash" (base64url), so the cost can be raised later and old hashes still verify.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password.normalize('NFKC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));

/** OWASP's scrypt floor is N=2^17, r=8, p=1 (128 MiB); tests may lower it through CONSOLE_SCRYPT_N. */
export const defaultCost = () => ({ N: Number(process.env.CONSOLE_SCRYPT_N ?? 2 ** 17), r: 8, p: 1 });
const KEYLEN = 32;

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN) return `A password needs at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `A password may have at most ${PASSWORD_MAX} characters`;
  if (/^(.)\1*$/.test(password)) return 'A password of one repeated character is too easy to guess';
  return undefined;
}

export async function hashPassword(password: string, cost = defaultCost()): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { ...cost, maxmem: 256 * cost.N * cost.r });
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `password` matches `stored`; false for any malformed hash (never throws). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  if (![N, R, P].every((x) => Number.isInteger(x) && x > 0) || N > 2 ** 20) return false;
  const expected = Buffer.from(hash, 'base64url');
  try {
    const key = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { N, r: R, p: P, maxmem: 256 * N * R });
    return key.length === expected.length && timingSafeEqual(key, expected);
  } catch {
    return false;
  }
}
