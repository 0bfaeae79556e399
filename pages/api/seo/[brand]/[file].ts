/**
 * robots.txt, sitemap.xml (index) and sitemaps/{n}.xml of a brand. The front door
 * (engine/frontDoor/frontDoor.ts) hands {host}/robots.txt, /sitemap.xml and /sitemaps/{n}.xml here
 * with the brand of the host.
 * Each file is built once and answered from memory after (engine/site/seo/seoFiles.ts); a query string
 * is ignored (the file is the same whatever it says), so `?n=1`, `?n=2`… cannot make the
 * server build anything again, nor nginx's microcache miss (it keys these files by path).
 */
import type { NextApiRequest } from 'next';
import { ApiError, ifNoneMatchHolds } from '../../../../engine/http/api';
import { route } from '../../../../engine/http/route';
import { RATE_RULES } from '../../../../engine/http/rateLimit';
import { contentSource } from '../../../../engine/content/service';
import { seoFile, type SeoFile } from '../../../../engine/site/seo/seoFiles';

// A sitemap is up to 50,000 URLs (~4 MB), sent from memory: Next's 4 MB warning for API answers does not apply.
export const config = { api: { responseLimit: false } };

const fileOf = (req: NextApiRequest): string => (typeof req.query.file === 'string' ? req.query.file : '');

export default route(
  {
    methods: ['GET', 'HEAD'],
    brand: true,
    // Only the brand of the host the request came to: /api/seo/other-brand/… on this host is a 404,
    // so no host serves another brand's SEO files.
    check: (req, loaded) => {
      if ((req as NextApiRequest).query.brand !== loaded.brand.id) throw new ApiError(404, 'Not found');
    },
    // Sitemaps are megabytes each: a client may fetch a few a minute, not thousands.
    rate: (req) => (fileOf(req as NextApiRequest) === 'robots.txt' ? undefined : RATE_RULES.sitemap),
  },
  async ({ req, brand: loaded }) => {
    let found: SeoFile | undefined;
    try {
      found = await seoFile(loaded, fileOf(req as NextApiRequest), contentSource());
    } catch {
      throw new ApiError(503, 'The content service is unavailable; try again shortly');
    }
    if (!found) throw new ApiError(404, 'Not found');
    // s-maxage: a shared cache (nginx's microcache) may keep it too. The ETag is weak: the file goes
    // out gzipped or not under it (Next compresses what the client accepts), and a strong one would
    // claim the two encodings are the same bytes; If-None-Match compares weakly all the same.
    const etag = `W/${found.etag}`;
    const headers = { 'Cache-Control': 'public, max-age=3600, s-maxage=3600', ETag: etag };
    if (ifNoneMatchHolds(req.headers['if-none-match'], etag)) return { status: 304, headers };
    return { status: 200, bytes: found.body, headers: { ...headers, 'Content-Type': found.contentType } };
  },
);
