/**
 * GET /api/brand-logo/{hash}.{svg|png} — a logo uploaded in the studio (engine/console/logoUpload.ts),
 * on every host, so a brand published with it shows it without a deploy. The name is the hash of
 * the bytes: an answer never changes, and is cached for a year.
 */
import { ApiError } from '../../../engine/http/api';
import { route } from '../../../engine/http/route';
import { LOGO_HEADERS } from '../../../engine/console/logoUpload';
import { brandLogo, type StoredLogo } from '../../../engine/store/brandRevisions';

const NAME = /^[0-9a-f]{32}\.(?:svg|png)$/;
/** The logos read lately (they never change): a brand page's logo is asked for by every new visitor. */
const kept = new Map<string, StoredLogo>();

export default route({ methods: ['GET', 'HEAD'] }, async ({ req, store }) => {
  const name = new URL(req.url ?? '/', 'http://x').pathname.split('/').pop() ?? '';
  if (!NAME.test(name)) throw new ApiError(404, 'No such logo');
  let logo = kept.get(name);
  if (!logo) {
    logo = await brandLogo(await store(), name);
    if (!logo) throw new ApiError(404, 'No such logo');
    kept.set(name, logo);
    if (kept.size > 64) kept.delete(kept.keys().next().value!);
  }
  return { status: 200, bytes: logo.bytes, headers: { 'Content-Type': logo.type, ...LOGO_HEADERS } };
});
