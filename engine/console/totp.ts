/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): HMAC-SHA-1, 30-second steps,
 * 6 digits — what every authenticator app makes from an otpauth:// URI. About thirty lines on
 * node:crypto, so no library: the RFC's own test vectors pin it (tests/unit/console-totp.test.ts).
 *
 * A code is accepted for the current step and one step either side (clock drift), and only for a
 * step later than the last one the account used: a code seen once (read over a shoulder, or
 * replayed from a log) cannot sign in again within its window. Server-only (node:crypto).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isDeployment } from '../keys/keyFormat.mjs';
import type { Role } from './roles';

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now a code may belong to. */
export const TOTP_WINDOW = 1;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, no padding (as authenticator apps take a secret). */
export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Base32 text (any case, spaces and padding ignored) to bytes; undefined when it is not base32. */
export function base32Decode(text: string): Buffer | undefined {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  if (!/^[A-Z2-7]*$/.test(clean)) return undefined;
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    value = (value << 5) | ALPHABET.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 HOTP: the code of one counter value. */
export function hotp(key: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

/** The time step (RFC 6238's T) of a moment in milliseconds. */
export const timeStep = (ms: number): number => Math.floor(ms / 1000 / TOTP_STEP_SECONDS);

/** RFC 6238 TOTP: the code at a moment. */
export const totp = (key: Buffer, ms: number, digits = TOTP_DIGITS): string => hotp(key, timeStep(ms), digits);

/**
 * The step a typed code belongs to — within TOTP_WINDOW steps of now and later than `lastUsedStep`
 * — or undefined when it matches none (wrong, too old, or already used).
 */
export function matchTotp(key: Buffer, code: string, ms: number, lastUsedStep: number): number | undefined {
  const typed = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(typed)) return undefined;
  const now = timeStep(ms);
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step++) {
    if (step <= lastUsedStep) continue;
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(typed))) return step;
  }
  return undefined;
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommended length for SHA-1). */
export const newTotpSecret = (): Buffer => randomBytes(20);

/** The otpauth:// URI an authenticator app reads (Key URI Format): issuer and account in the label. */
export function otpauthUri(secret: Buffer, account: string, issuer = 'loansites console'): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const q = new URLSearchParams({ secret: base32Encode(secret), issuer, algorithm: 'SHA1', digits: String(TOTP_DIGITS), period: String(TOTP_STEP_SECONDS) });
  return `otpauth://totp/${label}?${q.toString()}`;
}

/** The secret as people type it: groups of four. */
export const groupedSecret = (secret: Buffer): string => base32Encode(secret).replace(/(.{4})(?=.)/g, '$1 ');

/**
 * Whether an account must have a second factor: admins in a deployment (LOANSITES_DEPLOYMENT=
 * production, where the console answers only on CONSOLE_HOSTS). On a laptop (console.localhost)
 * it stays optional, so `npm start` needs no phone.
 */
export const totpRequired = (role: Role, env: Record<string, string | undefined> = process.env): boolean => role === 'admin' && isDeployment(env);
