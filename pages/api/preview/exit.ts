/** GET /api/preview/exit?path=… — leave draft mode (404 while previews are off). */
import type { NextApiRequest, NextApiResponse } from 'next';
import { route } from '../../../engine/http/route';
import { previewSecret } from '../../../engine/http/preview';

/**
 * A page of this site: one slash first, then lowercase segments. A second slash first would make
 * the Location another site's ("//2130706433" is https://127.0.0.1/); the same rule as
 * ./index.ts, whose links this one leaves.
 */
const SITE_PATH = /^\/(?!\/)[a-z0-9/-]{0,300}$/;

// A link followed from a preview: it does not look at the method.
export default route({ methods: 'any' }, async ({ req, res }) => {
  previewSecret();
  (res as NextApiResponse).setDraftMode({ enable: false });
  const { path } = (req as NextApiRequest).query;
  return { status: 307, headers: { Location: typeof path === 'string' && SITE_PATH.test(path) ? path : '/' } };
});
