/**
 * robots.txt and sitemaps are built once and answered from memory or disk after
 * (engine/site/seo/seoFiles.ts): repeats, requests that arrive together and a restart cost no second
 * build, and what a process keeps in memory stays within its bound however many sitemaps it serves.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { createEmbeddedSource, embeddedIndex } from '../../engine/content/embedded';
import { createSeoFiles, SEO_FILES_MEMORY_BYTES } from '../../engine/site/seo/seoFiles';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
const content = createEmbeddedSource(embeddedIndex());
const loaded = catalog.brands.get('ipaydayloans')!;
const tempDir = () => mkdtempSync(join(tmpdir(), 'seo-files-'));
const store = createSeoFiles({ dir: tempDir(), memoryBytes: SEO_FILES_MEMORY_BYTES });

/** The brand's directory of built files in `dir`, and each file's inode and modification time. */
function stored(dir: string) {
  const brandDirs = readdirSync(dir).filter((n) => n.startsWith('ipaydayloans-'));
  expect(brandDirs).toHaveLength(1);
  const files = readdirSync(join(dir, brandDirs[0]!)).sort();
  return { files, stats: files.map((f) => statSync(join(dir, brandDirs[0]!, f))).map((s) => `${s.ino}:${s.mtimeMs}`) };
}

describe('seoFile', () => {
  it('builds a sitemap once: a repeat is the same bytes from memory', async () => {
    const first = await store.seoFile(loaded, 'sitemap-0.xml', content);
    // A rebuild would be a new SeoFile (a new Buffer); the same object is the one kept in memory.
    const again = await store.seoFile(loaded, 'sitemap-0.xml', content);
    expect(again).toBe(first);
    expect(first!.body.toString('utf8')).toMatch(/^<\?xml[^]*<urlset[^]*<loc>https:\/\//);
    expect(first!.etag).toMatch(/^"[\w-]+"$/);
  }, 60_000);

  it('requests that arrive together wait for one build', async () => {
    // Each build makes its own SeoFile: eight requests answered with one object were served by one build.
    const files = await Promise.all(Array.from({ length: 8 }, () => store.seoFile(loaded, 'sitemap-1.xml', content)));
    expect(files[0]).toBeDefined();
    expect(new Set(files).size).toBe(1);
  }, 60_000);

  it('robots.txt and the index once each; a sitemap past the last, or any other name, is none', async () => {
    for (const name of ['robots.txt', 'sitemap.xml']) {
      const one = await store.seoFile(loaded, name, content);
      expect(await store.seoFile(loaded, name, content)).toBe(one);
    }
    expect(await store.seoFile(loaded, 'sitemap-999.xml', content)).toBeUndefined();
    expect(await store.seoFile(loaded, 'sitemap-01.xml', content)).toBeUndefined();
    expect(await store.seoFile(loaded, 'other.xml', content)).toBeUndefined();
  }, 60_000);

  it('a sitemap no longer in memory, or read by a restarted server, is the same bytes read from disk, not built again', async () => {
    const dir = tempDir();
    // A bound of one byte: every file read pushes the one before out of memory.
    const small = createSeoFiles({ dir, memoryBytes: 1 });
    const first = (await small.seoFile(loaded, 'sitemap-0.xml', content))!;
    const bytes = Buffer.from(first.body);
    const built = stored(dir);
    expect(built.files).toEqual(['etags.json', 'sitemap-0.xml', 'sitemap-1.xml', 'sitemap-2.xml', 'sitemap.xml']);
    expect(
      readFileSync(
        join(
          dir,
          readdirSync(dir).find((n) => n.startsWith('ipaydayloans-'))!,
          'sitemap-0.xml',
        ),
      ).equals(bytes),
    ).toBe(true);
    const second = (await small.seoFile(loaded, 'sitemap-1.xml', content))!;
    expect(small.heldBytes()).toBe(second.body.length);

    const again = (await small.seoFile(loaded, 'sitemap-0.xml', content))!;
    expect(again.body.equals(bytes)).toBe(true);
    expect(again.etag).toBe(first.etag);
    // Reading did not build the files again: a build writes a new directory (new inodes, new times).
    expect(stored(dir)).toEqual(built);

    // A restarted server answers from the directory without building: what it sends is what is on
    // disk (replaced here by other bytes, to tell a read from a build).
    const onDisk = join(
      dir,
      readdirSync(dir).find((n) => n.startsWith('ipaydayloans-'))!,
      'sitemap-0.xml',
    );
    const marked = Buffer.concat([bytes, Buffer.from('<!-- read from disk -->\n')]);
    writeFileSync(onDisk, marked);
    const restarted = (await createSeoFiles({ dir, memoryBytes: SEO_FILES_MEMORY_BYTES }).seoFile(loaded, 'sitemap-0.xml', content))!;
    expect(restarted.body.equals(marked)).toBe(true);
    expect(restarted.etag).toBe(first.etag);
  }, 120_000);

  it('a directory that cannot be written still answers every file, built in memory, with the bytes a written one has', async () => {
    const written = createSeoFiles({ dir: tempDir(), memoryBytes: SEO_FILES_MEMORY_BYTES });
    // A directory under a plain file cannot be made (even by root).
    const blocked = join(tempDir(), 'file');
    writeFileSync(blocked, '');
    const unwritable = createSeoFiles({ dir: join(blocked, 'seo-files'), memoryBytes: SEO_FILES_MEMORY_BYTES });
    for (const name of ['sitemap.xml', 'sitemap-0.xml', 'sitemap-2.xml']) {
      const a = (await written.seoFile(loaded, name, content))!;
      const b = (await unwritable.seoFile(loaded, name, content))!;
      expect(b.body.equals(a.body)).toBe(true);
      expect(b.etag).toBe(a.etag);
    }
  }, 120_000);

  it("memory held stays within its bound after every brand's sitemaps have been read", async () => {
    const all = createSeoFiles({ dir: tempDir(), memoryBytes: SEO_FILES_MEMORY_BYTES });
    let served = 0;
    let files = 0;
    for (const brand of catalog.brands.values()) {
      const index = (await all.seoFile(brand, 'sitemap.xml', content))!.body.toString('utf8');
      const count = index.match(/<sitemap>/g)!.length;
      for (let n = 0; n < count; n++) {
        served += (await all.seoFile(brand, `sitemap-${n}.xml`, content))!.body.length;
        files++;
        expect(all.heldBytes()).toBeLessThanOrEqual(SEO_FILES_MEMORY_BYTES);
      }
    }
    expect(files).toBeGreaterThan(catalog.brands.size);
    // Over twice the bound was served; no more than the bound is held.
    expect(served).toBeGreaterThan(2 * SEO_FILES_MEMORY_BYTES);
    expect(all.heldBytes()).toBeLessThanOrEqual(SEO_FILES_MEMORY_BYTES);
  }, 300_000);
});
