/**
 * A brand's robots.txt, sitemap index and sitemaps, built once and answered from memory after.
 * A sitemap is the same bytes until the brand document or the brand's content changes, and
 * building one (50,000 canonical URLs escaped and joined) costs about half a second of CPU:
 * each file is built once per (brand document, list of paths) and kept as one Buffer, which
 * every later request — and every client still reading it — shares rather than copies.
 * Requests arriving while a file is being built wait for that one build.
 */
import { createHash } from 'node:crypto';
import type { LoadedBrand } from './catalog';
import type { ContentSource } from './content/types';
import { SITEMAP_FILE } from './http/requestPath';
import { allPaths, robotsTxt, sitemapIndexXmlOf, sitemapXmlOf } from './sitemap';

export interface SeoFile {
  body: Buffer;
  contentType: string;
  /** strong validator of the bytes, for If-None-Match */
  etag: string;
}

/** robots.txt, sitemap.xml or sitemap-{n}.xml (the names the SEO route is given). */
export const isSeoFile = (file: string): boolean => file === 'robots.txt' || file === 'sitemap.xml' || SITEMAP_FILE.test(file);

const XML = 'application/xml; charset=utf-8';

function seoFileOf(text: string, contentType: string): SeoFile {
  const body = Buffer.from(text, 'utf8');
  return { body, contentType, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

// Keyed by the brand document as loaded (a new catalog is a new key) and by the list of paths
// (allPaths keeps the same list while the content it came from is unchanged).
const built = new WeakMap<LoadedBrand, { paths?: readonly string[]; files: Map<string, SeoFile> }>();

function filesOf(loaded: LoadedBrand, paths: readonly string[] | undefined): Map<string, SeoFile> {
  let entry = built.get(loaded);
  if (!entry || (paths && entry.paths !== paths)) {
    // robots.txt depends on the brand only; it survives a new list of paths.
    const robots = entry?.files.get('robots.txt');
    entry = { paths: paths ?? entry?.paths, files: new Map(robots ? [['robots.txt', robots]] : []) };
    built.set(loaded, entry);
  }
  return entry.files;
}

/**
 * The file named `file` of the brand, or undefined when there is no such file (a sitemap past
 * the last one). Throws when the content service cannot list the brand's content pages.
 */
export async function seoFile(loaded: LoadedBrand, file: string, source: ContentSource): Promise<SeoFile | undefined> {
  if (!isSeoFile(file)) return undefined;
  if (file === 'robots.txt') {
    const files = filesOf(loaded, undefined);
    let robots = files.get(file);
    if (!robots) files.set(file, (robots = seoFileOf(robotsTxt(loaded), 'text/plain; charset=utf-8')));
    return robots;
  }
  const paths = await allPaths(loaded, source);
  const files = filesOf(loaded, paths);
  const hit = files.get(file);
  if (hit) return hit;
  const xml = file === 'sitemap.xml' ? sitemapIndexXmlOf(loaded, paths) : sitemapXmlOf(loaded, paths, Number(file.slice(8, -4)));
  if (xml === undefined) return undefined;
  const made = seoFileOf(xml, XML);
  files.set(file, made);
  return made;
}
