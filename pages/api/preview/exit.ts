/** GET /api/preview/exit?path=… — leave draft mode (404 while previews are off). */
import type { NextApiRequest, NextApiResponse } from 'next';
import { route } from '../../../engine/http/route';
import { PREVIEW_PATH, previewSecret } from '../../../engine/http/preview';

// A link followed from a preview: it does not look at the method.
export default route({ methods: 'any' }, async ({ req, res }) => {
  previewSecret();
  (res as NextApiResponse).setDraftMode({ enable: false });
  const { path } = (req as NextApiRequest).query;
  return { status: 307, headers: { Location: typeof path === 'string' && PREVIEW_PATH.test(path) ? path : '/' } };
});
