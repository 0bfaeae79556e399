/**
 * robots.txt, sitemap.xml (index) and sitemaps/{n}.xml of a brand. The front door
 * (engine/frontDoor/frontDoor.ts) hands {host}/robots.txt, /sitemap.xml and /sitemaps/{n}.xml here
 * with the brand of the host.
 * Each file is built once and answered from memory after (engine/site/seo/seoFiles.ts); a query string
 * is ignored (the file is the same whatever it says), so `?n=1`, `?n=2`… cannot make the
 * server build anything again, nor nginx's microcache miss (it keys these files by path).
 */
import type { NextApiRequest, NextApiResponse } from 'next';
import { ApiError, brandOfRequest, clientIp, handleApi, requireMethod } from '../../../../engine/http/api';
import { enforceRateLimit, RATE_RULES } from '../../../../engine/http/rateLimit';
import { contentSource } from '../../../../engine/content/service';
import { seoFile, type SeoFile } from '../../../../engine/site/seo/seoFiles';

// A sitemap is up to 50,000 URLs (~4 MB), sent from memory: Next's 4 MB warning for API answers does not apply.
export const config = { api: { responseLimit: false } };

export default function handler(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  return handleApi(req, res, async () => {
    requireMethod(req, ['GET', 'HEAD']);
    // Only the brand of the host the request came to: /api/seo/other-brand/… on this host is a 404,
    // so no host serves another brand's SEO files.
    const loaded = brandOfRequest(req);
    if (req.query.brand !== loaded.brand.id) throw new ApiError(404, 'Not found');
    const file = typeof req.query.file === 'string' ? req.query.file : '';
    // Sitemaps are megabytes each: a client may fetch a few a minute, not thousands.
    if (file !== 'robots.txt') await enforceRateLimit(RATE_RULES.sitemap, clientIp(req));
    let found: SeoFile | undefined;
    try {
      found = await seoFile(loaded, file, contentSource());
    } catch {
      throw new ApiError(503, 'The content service is unavailable; try again shortly');
    }
    if (!found) throw new ApiError(404, 'Not found');
    // s-maxage: a shared cache (nginx's microcache) may keep it too.
    const headers = { 'Cache-Control': 'public, max-age=3600, s-maxage=3600', ETag: found.etag };
    if (req.headers['if-none-match'] === found.etag) return { status: 304, headers };
    return { status: 200, bytes: found.body, headers: { ...headers, 'Content-Type': found.contentType } };
  });
}
