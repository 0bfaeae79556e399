/**
 * Signed draft-preview links for operators: /api/preview?brand=…&path=…&sig=… where sig is
 * an HMAC-SHA256 of "brand path" with CONTENT_PREVIEW_SECRET. A valid link turns on Next's
 * draft mode (PREVIEW content) and redirects to the page; visitors only ever see LIVE.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from './api';

/**
 * The secret of the preview links. Without one, previews are off and their endpoints are not
 * there: 404, as for any path that has nothing (a server error would say something broke).
 */
export function previewSecret(): string {
  const secret = process.env.CONTENT_PREVIEW_SECRET;
  if (!secret) throw new ApiError(404, 'Not found: previews are not enabled on this server');
  return secret;
}

/**
 * A page of this site a preview link may open or leave for: one slash first, then lowercase
 * segments. A second slash first would make the Location another site's ("//2130706433" is
 * https://127.0.0.1/), and a signature only says an operator made the link, not that its path is
 * a page.
 */
export const PREVIEW_PATH = /^\/(?!\/)[a-z0-9/-]{0,300}$/;

export const previewSignature = (secret: string, brand: string, path: string): string => createHmac('sha256', secret).update(`${brand} ${path}`).digest('hex');

export function verifyPreviewSignature(secret: string | undefined, brand: string, path: string, sig: string): boolean {
  if (!secret || !/^[0-9a-f]{64}$/.test(sig)) return false;
  const expected = Buffer.from(previewSignature(secret, brand, path), 'hex');
  return timingSafeEqual(expected, Buffer.from(sig, 'hex'));
}

export const previewLink = (secret: string, brand: string, path: string): string =>
  `/api/preview?${new URLSearchParams({ brand, path, sig: previewSignature(secret, brand, path) }).toString()}`;

/** Constant-time comparison of a presented secret with the configured one. */
export function secretMatches(configured: string | undefined, presented: unknown): boolean {
  if (!configured || typeof presented !== 'string') return false;
  const a = Buffer.from(configured);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}
