/**
 * Console passwords, hashed with scrypt from node:crypto: a memory-hard function (as argon2id
 * is) that ships with Node, so no native add-on to build on every machine and image. Stored as
 * "scrypt$N$r$p$salt$hash" (base64url), so the cost can be raised later and old hashes still verify.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * A hash is memory-hard on purpose (128 MiB and a core for a fraction of a second at the default
 * cost), so sign-ins must not run as many at once as arrive: at most `slots` run, up to `queue`
 * more wait in line — for as long as a few hashes take here (`waitHashes` times the typical
 * hash, within `waitMs`; the most before one was timed), so operators signing in at the same
 * moment all get in, on a slow machine too —
 * and the rest are told at once that the server is busy (HashingBusy: the caller answers 503
 * with Retry-After). A flood then costs a bounded amount of memory and CPU instead of all of both.
 */
export const HASH_LIMITS = { slots: 1, queue: 4, waitHashes: 4, waitMs: { min: 3_000, max: 10_000 }, retryAfterSeconds: 2 };

export class HashingBusy extends Error {
  readonly retryAfterSeconds = HASH_LIMITS.retryAfterSeconds;
  constructor() {
    super('The server is busy with other sign-ins; try again in a few seconds');
  }
}

/** How long a hash takes here (a moving average), so a sign-in that needs none can take as long. */
let typicalHashMs: number | undefined;

let running = 0;
const waiting: (() => void)[] = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running < HASH_LIMITS.slots) running++;
  else {
    if (waiting.length >= HASH_LIMITS.queue) throw new HashingBusy();
    // The slot is handed over by the one finishing (running stays counted), or the wait times out.
    await new Promise<void>((resolve, reject) => {
      const take = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          waiting.splice(waiting.indexOf(take), 1);
          reject(new HashingBusy());
        },
        typicalHashMs === undefined
          ? HASH_LIMITS.waitMs.max
          : Math.min(HASH_LIMITS.waitMs.max, Math.max(HASH_LIMITS.waitMs.min, HASH_LIMITS.waitHashes * typicalHashMs)),
      );
      waiting.push(take);
    });
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  withHashSlot(async () => {
    const started = performance.now();
    const key = await new Promise<Buffer>((resolve, reject) =>
      scryptCb(password.normalize('NFKC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
    );
    const ms = performance.now() - started;
    typicalHashMs = typicalHashMs === undefined ? ms : 0.8 * typicalHashMs + 0.2 * ms;
    return key;
  });

/**
 * As long as checking a password takes, without checking one: the sign-in of an email that has no
 * account answers no sooner than a wrong password (so the timing does not tell which emails have
 * one) at the cost of a timer instead of a hash. The first one, before any hash was timed, hashes.
 */
export async function timeOfAVerification(): Promise<void> {
  if (typicalHashMs === undefined) await hashPassword('a password no account has, timed once');
  else await new Promise((resolve) => setTimeout(resolve, typicalHashMs));
}

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

/** True when `password` matches `stored`; false for any malformed hash (throws only HashingBusy). */
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
  } catch (err) {
    if (err instanceof HashingBusy) throw err;
    return false;
  }
}
