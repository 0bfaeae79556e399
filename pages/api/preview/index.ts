/** GET /api/preview?brand&path&sig — a signed link turns on draft mode and opens the page. */
import type { NextApiRequest, NextApiResponse } from 'next';
import { getCatalog } from '../../../engine/catalog';
import { ApiError, handleApi } from '../../../engine/http/api';
import { verifyPreviewSignature } from '../../../engine/preview';

export default function handler(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  return handleApi(req, res, async () => {
    const { brand, path, sig } = req.query;
    if (typeof brand !== 'string' || typeof path !== 'string' || typeof sig !== 'string' || !/^\/[a-z0-9/-]{0,300}$/.test(path)) {
      throw new ApiError(400, 'brand, path (a lowercase path starting with /) and sig are required');
    }
    if (!process.env.CONTENT_PREVIEW_SECRET) throw new ApiError(503, 'Preview is not configured (CONTENT_PREVIEW_SECRET is not set)');
    if (!verifyPreviewSignature(process.env.CONTENT_PREVIEW_SECRET, brand, path, sig)) throw new ApiError(401, 'The preview link is not valid');
    if (!getCatalog().brands.has(brand)) throw new ApiError(404, `No brand "${brand}"`);
    res.setDraftMode({ enable: true });
    return { status: 307, headers: { Location: path } };
  });
}
