/**
 * The studio's live preview: a draft page rendered by the engine and blocks that serve visitors,
 * at an address only the editor's session can open, for a few minutes. The address carries a
 * token: an HMAC, keyed by the session (as the CSRF token is), of the brand, the path and the
 * expiry — so it needs no secret to configure, works on whichever instance the frame reaches,
 * and is worthless to anyone without that session's cookie, or after it expires.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import previewSchema from '../../schemas/api/console-studio-preview.schema.json' with { type: 'json' };
import type { ConsoleStudioPreview } from '../../schemas/api.types';
import { ApiError, type ApiAnswer } from '../http/api';
import type { Store } from '../store/db';
import { requireUser } from './api';
import { csrfValid } from './csrf';

export { previewSchema };

/** How long a preview address works: long enough to load and look, short enough that a copied link is soon useless. */
export const PREVIEW_TTL_MS = 5 * 60_000;

/** The console host's path of the preview (engine/frontDoor/consolePath.ts maps it onto pages/_console/studio-preview/). */
export const previewPath = (brand: string) => `/studio-preview/${brand}`;

const mac = (session: string, brand: string, path: string, expires: number) =>
  createHmac('sha256', createHmac('sha256', session).update('loansites-studio-preview').digest()).update(`${brand}\n${path}\n${expires}`).digest('base64url');

/** A token for this session to see this brand's draft at this path until now + ttl. */
export function previewToken(session: string, brand: string, path: string, now = Date.now(), ttl = PREVIEW_TTL_MS): string {
  const expires = now + ttl;
  return `${expires.toString(36)}.${mac(session, brand, path, expires)}`;
}

/** Whether a token was made for this session, brand and path, and has not expired. */
export function previewTokenValid(session: string, brand: string, path: string, token: unknown, now = Date.now()): boolean {
  if (!session || typeof token !== 'string') return false;
  const m = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return false;
  const expires = parseInt(m[1]!, 36);
  if (!(expires > now) || expires > now + PREVIEW_TTL_MS) return false;
  const want = Buffer.from(mac(session, brand, path, expires));
  const got = Buffer.from(m[2]!);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** The preview's address: its path, the page to show and the token. */
export const previewUrl = (session: string, brand: string, path: string, now = Date.now()): string =>
  `${previewPath(brand)}?${new URLSearchParams({ path, token: previewToken(session, brand, path, now) }).toString()}`;

/** POST {brand, path} with X-CSRF-Token: a fresh preview address for the signed-in editor (any role that may see the studio). */
export async function previewLinkAnswer(db: Store, req: IncomingMessage, body: ConsoleStudioPreview, now = new Date()): Promise<ApiAnswer> {
  const who = await requireUser(db, { method: 'POST', headers: req.headers as Record<string, string | undefined>, ip: '' }, 'studio.view');
  if ('refused' in who) throw new ApiError(who.refused!.status, String((who.refused!.body as { error: string }).error));
  if (!csrfValid(who.token, req.headers['x-csrf-token'])) throw new ApiError(403, 'The page is out of date; reload it and try again');
  return {
    status: 200,
    body: { url: previewUrl(who.token, body.brand, body.path, now.getTime()), expiresAt: new Date(now.getTime() + PREVIEW_TTL_MS).toISOString() },
    headers: { 'Cache-Control': 'no-store' },
  };
}
