/**
 * robots.txt, sitemap.xml (index) and sitemaps/{n}.xml of a brand. The front door
 * (engine/http/frontDoor.ts) hands {host}/robots.txt, /sitemap.xml and /sitemaps/{n}.xml here
 * with the brand of the host.
 */
import type { NextApiRequest, NextApiResponse } from 'next';
import { getCatalog } from '../../../../engine/catalog';
import { lookupBrandId, requestHost } from '../../../../engine/hosts';
import { trustProxyHeaders } from '../../../../engine/http/api';
import { SITEMAP_FILE } from '../../../../engine/http/requestPath';
import { contentSource } from '../../../../engine/content/service';
import { allPaths, robotsTxt, sitemapIndexXmlOf, sitemapXmlOf } from '../../../../engine/sitemap';

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
  res.setHeader('Cache-Control', 'public, max-age=3600');
  if (file === 'robots.txt') return res.status(200).setHeader('Content-Type', 'text/plain; charset=utf-8').send(robotsTxt(loaded));
  let paths: string[];
  try {
    paths = await allPaths(loaded, contentSource());
  } catch {
    res.setHeader('Cache-Control', 'no-store');
    return res.status(503).send('The content service is unavailable; try again shortly');
  }
  if (file === 'sitemap.xml') return res.status(200).setHeader('Content-Type', 'application/xml; charset=utf-8').send(sitemapIndexXmlOf(loaded, paths));
  const m = SITEMAP_FILE.exec(file);
  const xml = m ? sitemapXmlOf(loaded, paths, Number(m[1])) : undefined;
  if (!xml) return res.status(404).send('Not found');
  return res.status(200).setHeader('Content-Type', 'application/xml; charset=utf-8').send(xml);
}
