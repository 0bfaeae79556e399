/**
 * robots.txt, sitemap.xml (index) and sitemaps/{n}.xml of a brand. The front door
 * (engine/http/frontDoor.ts) hands {host}/robots.txt, /sitemap.xml and /sitemaps/{n}.xml here
 * with the brand of the host.
 * Each file is built once and answered from memory after (engine/seoFiles.ts); a query string
 * is ignored (the file is the same whatever it says), so `?n=1`, `?n=2`… cannot make the
 * server build anything again, nor nginx's microcache miss (it keys these files by path).
 */
import type { NextApiRequest, NextApiResponse } from 'next';
import { getCatalog } from '../../../../engine/catalog';
import { lookupBrandId, requestHost } from '../../../../engine/hosts';
import { clientIp, trustProxyHeaders } from '../../../../engine/http/api';
import { RATE_RULES, rateLimiter } from '../../../../engine/http/rateLimit';
import { sendBuffer } from '../../../../engine/http/slowClients.mjs';
import { contentSource } from '../../../../engine/content/service';
import { seoFile, type SeoFile } from '../../../../engine/seoFiles';

// A sitemap is up to 50,000 URLs (~4 MB), sent from memory: Next's 4 MB warning for API answers does not apply.
export const config = { api: { responseLimit: false } };

export default async function handler(req: NextApiRequest, res: NextApiResponse) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return res.status(405).send('Method not allowed');
  }
  // Only the brand of the host the request came to: /api/seo/other-brand/… on this host is a 404,
  // so no host serves another brand's SEO files.
  const catalog = getCatalog();
  const host = requestHost({ host: req.headers.host, forwardedHost: req.headers['x-forwarded-host'] as string | undefined }, trustProxyHeaders());
  const hostBrand = lookupBrandId(catalog.hostMap, host) ?? lookupBrandId(catalog.blogHostMap, host);
  const loaded = typeof req.query.brand === 'string' && req.query.brand === hostBrand ? catalog.brands.get(req.query.brand) : undefined;
  const file = typeof req.query.file === 'string' ? req.query.file : '';
  if (!loaded) return res.status(404).send('Not found');
  // Sitemaps are megabytes each: a client may fetch a few a minute, not thousands.
  if (file !== 'robots.txt') {
    const d = await rateLimiter(RATE_RULES.sitemap).hit(clientIp(req));
    if (!d.ok) {
      res.setHeader('Retry-After', String(d.retryAfter));
      res.setHeader('Cache-Control', 'no-store');
      return res.status(429).send(`Too many requests; try again in ${d.retryAfter} s`);
    }
  }
  let found: SeoFile | undefined;
  try {
    found = await seoFile(loaded, file, contentSource());
  } catch {
    res.setHeader('Cache-Control', 'no-store');
    return res.status(503).send('The content service is unavailable; try again shortly');
  }
  if (!found) return res.status(404).send('Not found');
  // s-maxage: a shared cache (nginx's microcache) may keep it too.
  res.setHeader('Cache-Control', 'public, max-age=3600, s-maxage=3600');
  res.setHeader('ETag', found.etag);
  res.setHeader('Content-Type', found.contentType);
  if (req.headers['if-none-match'] === found.etag) return res.status(304).end();
  res.setHeader('Content-Length', String(found.body.length));
  res.status(200);
  if (req.method === 'HEAD') return res.end();
  // The one shared Buffer, written as the client takes it (engine/http/slowClients.mjs).
  sendBuffer(res, found.body);
}
