/** GET /api/preview/exit?path=… — leave draft mode. */
import type { NextApiRequest, NextApiResponse } from 'next';

export default function handler(req: NextApiRequest, res: NextApiResponse) {
  res.setDraftMode({ enable: false });
  const path = typeof req.query.path === 'string' && /^\/[a-z0-9/-]{0,300}$/.test(req.query.path) ? req.query.path : '/';
  res.redirect(307, path);
}
