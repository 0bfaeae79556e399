/** GET /api/preview?brand&path&sig — a signed link turns on draft mode and opens the page. */
import type { NextApiRequest, NextApiResponse } from 'next';
import { getCatalog } from '../../../engine/catalog';
import { verifyPreviewSignature } from '../../../engine/preview';

export default function handler(req: NextApiRequest, res: NextApiResponse) {
  const { brand, path, sig } = req.query;
  if (typeof brand !== 'string' || typeof path !== 'string' || typeof sig !== 'string' || !/^\/[a-z0-9/-]{0,300}$/.test(path)) {
    return res.status(400).json({ error: 'brand, path (a lowercase path starting with /) and sig are required' });
  }
  if (!process.env.CONTENT_PREVIEW_SECRET) return res.status(503).json({ error: 'Preview is not configured (CONTENT_PREVIEW_SECRET is not set)' });
  if (!verifyPreviewSignature(process.env.CONTENT_PREVIEW_SECRET, brand, path, sig)) return res.status(401).json({ error: 'The preview link is not valid' });
  if (!getCatalog().brands.has(brand)) return res.status(404).json({ error: `No brand "${brand}"` });
  res.setDraftMode({ enable: true });
  res.setHeader('Cache-Control', 'no-store');
  res.redirect(307, path);
}
