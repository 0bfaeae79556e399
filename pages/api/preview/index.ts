/** GET /api/preview?brand&path&sig — a signed link turns on draft mode and opens the page. */
import type { NextApiRequest, NextApiResponse } from 'next';
import { getCatalog } from '../../../engine/site/catalog';
import { ApiError, handleApi } from '../../../engine/http/api';
import { previewSecret, verifyPreviewSignature } from '../../../engine/http/preview';

export default function handler(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  return handleApi(req, res, async () => {
    const secret = previewSecret();
    const { brand, path, sig } = req.query;
    if (typeof brand !== 'string' || typeof path !== 'string' || typeof sig !== 'string' || !/^\/[a-z0-9/-]{0,300}$/.test(path)) {
      throw new ApiError(400, 'brand, path (a lowercase path starting with /) and sig are required');
    }
    if (!verifyPreviewSignature(secret, brand, path, sig)) throw new ApiError(401, 'The preview link is not valid');
    if (!getCatalog().brands.has(brand)) throw new ApiError(404, `No brand "${brand}"`);
    res.setDraftMode({ enable: true });
    return { status: 307, headers: { Location: path } };
  });
}
