/**
 * A brand's robots.txt, sitemap index and sitemaps, built once and answered from disk and a
 * bounded memory after. A sitemap is the same bytes until the brand document or the brand's
 * content changes, and building one (50,000 canonical URLs escaped and joined) costs a fifth of a
 * second of CPU or more; but every brand's sitemaps together are tens of MB, more than a process
 * should hold for its whole life for crawlers that read each file once in a while. So:
 * - a brand's files are built together, once per listing (its document, route pages and content
 *   pages, hashed into a key), and written with their ETags to a directory of the build
 *   (`.next/seo-files/{brand}-{key}/`, which `next build` clears): a later request, another
 *   process or the next start reads them from there instead of building them again;
 * - files read are kept in memory up to a bound of bytes (the least recently read go first), and
 *   a file still being sent to some client is shared while it is: one Buffer per file however many
 *   clients read it (engine/http/slowClients.mjs writes it as each client takes it);
 * - per brand, memory holds the listing's key and ETags only; the route pages (up to 120,000
 *   paths, seconds of CPU to enumerate) are on disk too, read again only when the content changes.
 * Requests arriving while a listing is being built wait for that one build. A directory that
 * cannot be written leaves the files in memory only (still bounded: an evicted one is rebuilt).
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot, type LoadedBrand } from '../catalog';
import type { ContentSource } from '../../content/types';
import { SITEMAP_FILE } from '../../browser/requestPath';
import { brandPaths, contentPaths, robotsTxt, sitemapCountOf, sitemapIndexXmlOf, sitemapPaths, sitemapPieces, sitemapXmlOf } from './sitemap';

export interface SeoFile {
  body: Buffer;
  contentType: string;
  /** strong validator of the bytes, for If-None-Match */
  etag: string;
}

/** robots.txt, sitemap.xml or sitemap-{n}.xml (the names the SEO route is given). */
export const isSeoFile = (file: string): boolean => file === 'robots.txt' || file === 'sitemap.xml' || SITEMAP_FILE.test(file);

const XML = 'application/xml; charset=utf-8';
const sha1 = (data: string | Buffer) => createHash('sha1').update(data).digest('base64url');
/** length of a sha1 in base64url */
const HASH_LENGTH = 27;
const seoFileOf = (body: Buffer, contentType: string): SeoFile => ({ body, contentType, etag: `"${sha1(body)}"` });

/** Bytes of built sitemaps a process keeps in memory: a few sitemaps of 50,000 URLs (~4 MB each). */
export const SEO_FILES_MEMORY_BYTES = 16 * 1024 * 1024;
const LISTING_TTL_MS = 600_000;

export interface SeoFilesOptions {
  /** where built files are written, one directory per brand and listing */
  dir: string;
  /** bytes of built files kept in memory; a single file larger than this is still kept, alone */
  memoryBytes: number;
  /** how long a brand's list of content pages is trusted before it is asked for again */
  listingTtlMs?: number;
}

export interface SeoFiles {
  /**
   * The file named `file` of the brand, or undefined when there is no such file (a sitemap past
   * the last one). Throws when the content service cannot list the brand's content pages.
   */
  seoFile(loaded: LoadedBrand, file: string, source: ContentSource): Promise<SeoFile | undefined>;
  /** bytes of built files this store keeps in memory (not counting files only clients still hold) */
  heldBytes(): number;
}

interface Listing {
  loaded: LoadedBrand;
  key: string;
  dir: string;
  /** file name → ETag: the files this listing has */
  etags: Record<string, string>;
  expires: number;
}

const MANIFEST = 'etags.json';

/**
 * Writes the listing's files into `dir`, each sitemap piece by piece (never one 4 MB string or
 * Buffer: what a build allocates stays small and is reused), and returns their ETags; undefined
 * when the directory cannot be written. Written beside and renamed into place: a reader (another
 * process too) sees all the files or none.
 */
function writeListing(dir: string, loaded: LoadedBrand, paths: readonly string[]): Record<string, string> | undefined {
  const tmp = `${dir}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(tmp, { recursive: true });
    const index = Buffer.from(sitemapIndexXmlOf(loaded, paths));
    writeFileSync(join(tmp, 'sitemap.xml'), index);
    const etags: Record<string, string> = { 'sitemap.xml': `"${sha1(index)}"` };
    for (let n = 0; n < sitemapCountOf(paths); n++) {
      const name = `sitemap-${n}.xml`;
      const hash = createHash('sha1');
      const fd = openSync(join(tmp, name), 'w');
      try {
        for (const piece of sitemapPieces(loaded, paths, n)) {
          const bytes = Buffer.from(piece);
          hash.update(bytes);
          writeSync(fd, bytes);
        }
      } finally {
        closeSync(fd);
      }
      etags[name] = `"${hash.digest('base64url')}"`;
    }
    writeFileSync(join(tmp, MANIFEST), JSON.stringify(etags));
    renameSync(tmp, dir);
    return etags;
  } catch {
    rmSync(tmp, { recursive: true, force: true });
    // Another process may have put the same listing in place first.
    return readManifest(dir);
  }
}

function readManifest(dir: string): Record<string, string> | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as Record<string, string>;
  } catch {
    return undefined;
  }
}

export function createSeoFiles(options: SeoFilesOptions): SeoFiles {
  const ttl = options.listingTtlMs ?? LISTING_TTL_MS;
  const robots = new WeakMap<LoadedBrand, SeoFile>();
  const documentKeys = new WeakMap<LoadedBrand, string>();
  /** hash of the brand's route pages, whose list is on disk under that hash */
  const routeHashes = new WeakMap<LoadedBrand, string>();
  const listings = new Map<string, Listing>();
  const pending = new Map<string, Promise<Listing>>();
  // In order of use, least recent first; `live` finds a file evicted from it that a client still holds.
  const memory = new Map<string, SeoFile>();
  let held = 0;
  const live = new Map<string, WeakRef<SeoFile>>();
  const forget = new FinalizationRegistry<string>((path) => {
    if (!live.get(path)?.deref()) live.delete(path);
  });
  const reads = new Map<string, Promise<SeoFile>>();

  const keep = (path: string, file: SeoFile) => {
    const before = memory.get(path);
    if (before) {
      memory.delete(path);
      held -= before.body.length;
    }
    memory.set(path, file);
    held += file.body.length;
    for (const [oldest, f] of memory) {
      if (held <= options.memoryBytes || oldest === path) break;
      memory.delete(oldest);
      held -= f.body.length;
    }
    if (live.get(path)?.deref() !== file) {
      live.set(path, new WeakRef(file));
      forget.register(file, path);
    }
  };
  const cached = (path: string): SeoFile | undefined => {
    const file = memory.get(path) ?? live.get(path)?.deref();
    if (file) keep(path, file);
    return file;
  };

  /** Removes what an earlier listing of the brand wrote (`{prefix}{hash}{suffix}`), all but `except`. */
  const removeOthers = (prefix: string, suffix: string, except: string) => {
    for (const name of readdirSync(options.dir)) {
      const path = join(options.dir, name);
      if (path !== except && name.startsWith(prefix) && name.endsWith(suffix) && name.length === prefix.length + HASH_LENGTH + suffix.length)
        rmSync(path, { recursive: true, force: true });
    }
  };
  const routesFile = (loaded: LoadedBrand, hash: string) => join(options.dir, `routes-${loaded.brand.id}-${hash}.txt`);
  /** The route pages' hash, enumerating them (and writing them down) the first time for this brand document. */
  function routesOf(loaded: LoadedBrand): { hash: string; paths?: string[] } {
    const known = routeHashes.get(loaded);
    if (known) return { hash: known };
    const paths = brandPaths(loaded);
    const text = paths.join('\n');
    const hash = sha1(text);
    try {
      mkdirSync(options.dir, { recursive: true });
      writeFileSync(routesFile(loaded, hash), text);
      removeOthers(`routes-${loaded.brand.id}-`, '.txt', routesFile(loaded, hash));
    } catch {
      // not written: enumerated again if ever needed
    }
    routeHashes.set(loaded, hash);
    return { hash, paths };
  }
  function routePaths(loaded: LoadedBrand, hash: string): string[] {
    try {
      const text = readFileSync(routesFile(loaded, hash), 'utf8');
      if (sha1(text) === hash) return text ? text.split('\n') : [];
    } catch {
      // gone: enumerate again
    }
    return brandPaths(loaded);
  }

  function documentKey(loaded: LoadedBrand): string {
    let key = documentKeys.get(loaded);
    if (!key) documentKeys.set(loaded, (key = sha1(JSON.stringify(loaded.brand))));
    return key;
  }

  async function list(loaded: LoadedBrand, source: ContentSource, known: Listing | undefined): Promise<Listing> {
    const content = await contentPaths(loaded, source);
    const routes = routesOf(loaded);
    const key = sha1([documentKey(loaded), routes.hash, ...content].join('\n'));
    const id = loaded.brand.id;
    const dir = join(options.dir, `${id}-${key}`);
    const fresh = { loaded, key, dir, expires: Date.now() + ttl };
    if (known?.key === key) return { ...fresh, etags: known.etags };
    const stored = readManifest(dir);
    if (stored) return { ...fresh, etags: stored };
    const paths = sitemapPaths(loaded, routes.paths ?? routePaths(loaded, routes.hash), content);
    const written = writeListing(dir, loaded, paths);
    if (written) {
      // The brand's earlier listings are not served again (a process still on one lists again when its files are gone).
      removeOthers(`${id}-`, '', dir);
      return { ...fresh, etags: written };
    }
    // Nowhere to write: built in memory, kept there within the bound (an evicted file is built again).
    const files = new Map<string, SeoFile>([['sitemap.xml', seoFileOf(Buffer.from(sitemapIndexXmlOf(loaded, paths)), XML)]]);
    for (let n = 0; n < sitemapCountOf(paths); n++) files.set(`sitemap-${n}.xml`, seoFileOf(Buffer.from(sitemapXmlOf(loaded, paths, n)!), XML));
    for (const [name, f] of files) keep(join(dir, name), f);
    const etags = Object.fromEntries([...files].map(([name, f]) => [name, f.etag]));
    return { ...fresh, etags };
  }

  function listingOf(loaded: LoadedBrand, source: ContentSource): Promise<Listing> {
    const id = loaded.brand.id;
    const known = listings.get(id);
    if (known && known.loaded === loaded && known.expires > Date.now()) return Promise.resolve(known);
    let listing = pending.get(id);
    if (!listing) {
      listing = list(loaded, source, known)
        .then((made) => (listings.set(id, made), made))
        .finally(() => pending.delete(id));
      pending.set(id, listing);
    }
    return listing;
  }

  function fileOf(listing: Listing, name: string): Promise<SeoFile | undefined> {
    const etag = listing.etags[name];
    if (!etag) return Promise.resolve(undefined);
    const path = join(listing.dir, name);
    const hit = cached(path);
    if (hit) return Promise.resolve(hit);
    let read = reads.get(path);
    if (!read) {
      read = readFile(path)
        .then((body) => {
          const file = { body, contentType: XML, etag };
          keep(path, file);
          return file;
        })
        .finally(() => reads.delete(path));
      reads.set(path, read);
    }
    return read;
  }

  return {
    heldBytes: () => held,
    async seoFile(loaded, file, source) {
      if (!isSeoFile(file)) return undefined;
      if (file === 'robots.txt') {
        let made = robots.get(loaded);
        if (!made) robots.set(loaded, (made = seoFileOf(Buffer.from(robotsTxt(loaded), 'utf8'), 'text/plain; charset=utf-8')));
        return made;
      }
      const listing = await listingOf(loaded, source);
      try {
        return await fileOf(listing, file);
      } catch {
        // Its files are gone (another process listed newer content, or the directory was cleared): list again, once.
        if (listings.get(loaded.brand.id) === listing) listings.delete(loaded.brand.id);
        return fileOf(await listingOf(loaded, source), file);
      }
    },
  };
}

let shared: SeoFiles | undefined;
/** The process's store: in the build's directory (.next/seo-files), SEO_FILES_MEMORY_BYTES in memory. */
export const seoFile = (loaded: LoadedBrand, file: string, source: ContentSource): Promise<SeoFile | undefined> =>
  (shared ??= createSeoFiles({ dir: join(projectRoot(), '.next/seo-files'), memoryBytes: SEO_FILES_MEMORY_BYTES })).seoFile(loaded, file, source);
