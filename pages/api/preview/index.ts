/** GET /api/preview?brand&path&sig — a signed link turns on draft mode and opens the page. */
import type { NextApiRequest, NextApiResponse } from 'next';
import { getCatalog } from '../../../engine/site/catalog';
import { ApiError } from '../../../engine/http/api';
import { route } from '../../../engine/http/route';
import { previewSecret, verifyPreviewSignature } from '../../../engine/http/preview';

/**
 * A page of this site: one slash first, then lowercase segments. A second slash first would make
 * the Location another site's ("//2130706433" is https://127.0.0.1/), and a signature only says an
 * operator made the link, not that its path was a page; the same rule as ./exit.ts.
 */
const SITE_PATH = /^\/(?!\/)[a-z0-9/-]{0,300}$/;

// A signed link a person follows: it does not look at the method.
export default route({ methods: 'any' }, async ({ req, res }) => {
  const secret = previewSecret();
  const { brand, path, sig } = (req as NextApiRequest).query;
  if (typeof brand !== 'string' || typeof path !== 'string' || typeof sig !== 'string' || !SITE_PATH.test(path)) {
    throw new ApiError(400, 'brand, path (a lowercase path on this site: one slash first, not two) and sig are required');
  }
  if (!verifyPreviewSignature(secret, brand, path, sig)) throw new ApiError(401, 'The preview link is not valid');
  if (!getCatalog().brands.has(brand)) throw new ApiError(404, `No brand "${brand}"`);
  (res as NextApiResponse).setDraftMode({ enable: true });
  return { status: 307, headers: { Location: path } };
});
