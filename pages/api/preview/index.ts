/** GET /api/preview?brand&path&sig — a signed link turns on draft mode and opens the page. */
import type { NextApiRequest, NextApiResponse } from 'next';
import { getCatalog } from '../../../engine/site/catalog';
import { ApiError } from '../../../engine/http/api';
import { route } from '../../../engine/http/route';
import { PREVIEW_PATH, previewSecret, verifyPreviewSignature } from '../../../engine/http/preview';

// A signed link a person follows: it does not look at the method.
export default route({ methods: 'any' }, async ({ req, res }) => {
  const secret = previewSecret();
  const { brand, path, sig } = (req as NextApiRequest).query;
  if (typeof brand !== 'string' || typeof path !== 'string' || typeof sig !== 'string' || !PREVIEW_PATH.test(path)) {
    throw new ApiError(400, 'brand, path (a lowercase path on this site: one slash first, not two) and sig are required');
  }
  if (!verifyPreviewSignature(secret, brand, path, sig)) throw new ApiError(401, 'The preview link is not valid');
  if (!getCatalog().brands.has(brand)) throw new ApiError(404, `No brand "${brand}"`);
  (res as NextApiResponse).setDraftMode({ enable: true });
  return { status: 307, headers: { Location: path } };
});
