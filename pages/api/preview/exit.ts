/** GET /api/preview/exit?path=… — leave draft mode (404 while previews are off). */
import type { NextApiRequest, NextApiResponse } from 'next';
import { handleApi } from '../../../engine/http/api';
import { previewSecret } from '../../../engine/http/preview';

export default function handler(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  return handleApi(req, res, async () => {
    previewSecret();
    res.setDraftMode({ enable: false });
    const path = typeof req.query.path === 'string' && /^\/[a-z0-9/-]{0,300}$/.test(req.query.path) ? req.query.path : '/';
    return { status: 307, headers: { Location: path } };
  });
}
