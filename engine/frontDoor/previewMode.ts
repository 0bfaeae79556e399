/**
 * Next's preview-mode id: the secret that Next's own on-demand revalidation sends as
 * `x-prerender-revalidate` and that a real draft-mode cookie (`__prerender_bypass`) holds.
 * The proxy lets a request through to the internal prefix, or treats it as draft mode, only
 * when the value presented equals this id (compared in constant time) — never on the mere
 * presence of the header or cookie, which anyone can send.
 *
 * A production build writes the id to .next/prerender-manifest.json. `next dev` keeps a random
 * one in memory that nothing else can read: there no revalidation request is accepted, and a
 * draft cookie is believed when present (a developer's own machine).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { timingSafeEqual } from 'node:crypto';

let cached: string | null | undefined;

export function previewModeId(root = process.env.LOANSITES_ROOT || process.cwd()): string | null {
  if (cached !== undefined) return cached;
  try {
    const manifest = JSON.parse(readFileSync(join(root, '.next', 'prerender-manifest.json'), 'utf8')) as { preview?: { previewModeId?: unknown } };
    const id = manifest.preview?.previewModeId;
    cached = typeof id === 'string' && id.length >= 16 ? id : null;
  } catch {
    cached = null;
  }
  return cached;
}

/** Whether `presented` is the build's preview-mode id. False when either is missing. */
export function isPreviewModeId(presented: string | null | undefined, id = previewModeId()): boolean {
  if (!id || !presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(id);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Draft mode for real: the bypass cookie holds the preview-mode id (production), or is present (next dev). */
export function draftCookieValid(cookie: string | undefined, dev = process.env.NODE_ENV === 'development'): boolean {
  if (cookie === undefined) return false;
  return dev ? cookie.length > 0 : isPreviewModeId(cookie);
}
