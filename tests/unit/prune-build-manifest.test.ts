import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { notRoutedInBrowser, pruneBuildManifest, pruneBuildManifests } from '../../scripts/prune-build-manifest';

/** The form next build (16, Turbopack) writes, cut down to one page of each kind. */
const MANIFEST = `self.__BUILD_MANIFEST = {
  "/500": [
    "static/chunks/43yq05mo-v7mm.js"
  ],
  "/_brand/[brand]/[[...path]]": [
    "static/chunks/15mw36o99t6fz.js"
  ],
  "/_console": [
    "static/chunks/2-ebprqhh00cw.js"
  ],
  "/_console/leads/[id]": [
    "static/chunks/2jdg2rx64kwmb.js"
  ],
  "/_error": [
    "static/chunks/062xo84qzv8iq.js"
  ],
  "__rewrites": {
    "afterFiles": [],
    "beforeFiles": [],
    "fallback": []
  },
  "sortedPages": [
    "/500",
    "/_app",
    "/_brand/[brand]/[[...path]]",
    "/_console",
    "/_console/leads/[id]",
    "/_error",
    "/api/console/login",
    "/api/leads"
  ]
};self.__TURBOPACK_PAGE_BOOTSTRAP = {"/500":{"otherChunks":["static/chunks/39pj9bj5ojhp2.js"],"runtimeModuleIds":[10783,24556]},"/_console":{"otherChunks":["static/chunks/3y_o6xq64dor1.js"],"runtimeModuleIds":[10783,52367]},"/_console/leads/[id]":{"otherChunks":["static/chunks/00hhud-_9w558.js"],"runtimeModuleIds":[10783,23101]},"/_brand/[brand]/[[...path]]":{"otherChunks":["static/chunks/1dpgga73xrjn2.js"],"runtimeModuleIds":[10783,96837]},"/_app":{"otherChunks":["static/chunks/1g6e9f6n31sov.js","static/chunks/32s_txjszo7dy.js","static/chunks/27h5fmqcdos-7.css"],"runtimeModuleIds":[10783,68146]},"/_error":{"otherChunks":["static/chunks/1wxde8vk3rp8n.js"],"runtimeModuleIds":[10783,56762]}};self.__TURBOPACK_CHUNK_LOADING_GLOBAL = "TURBOPACK";self.__BUILD_MANIFEST_CB && self.__BUILD_MANIFEST_CB()`;

/** What the browser gets from a manifest script: the globals it sets, and whether it called Next's callback. */
function load(script: string) {
  const self: Record<string, unknown> = {};
  let called = 0;
  self.__BUILD_MANIFEST_CB = () => called++;
  runInNewContext(script, { self });
  delete self.__BUILD_MANIFEST_CB;
  return { globals: JSON.parse(JSON.stringify(self)) as Record<string, Record<string, unknown>>, called };
}

describe('the browser build manifest keeps only the pages a browser router opens (scripts/prune-build-manifest.ts)', () => {
  it.each([
    ['/_brand/[brand]/[[...path]]', false],
    ['/_app', false],
    ['/_error', false],
    ['/500', false],
    ['/_console', true],
    ['/_console/leads/[id]', true],
    ['/api/leads', true],
    ['/api/geocoding/v5/mapbox.places/[query]', true],
    ['/_consoles', false],
    ['/apiary', false],
  ])('%s left out: %s', (page, left) => expect(notRoutedInBrowser(page)).toBe(left));

  it('drops the console pages and API routes from the page list, the pages’ chunks and the bootstrap; keeps the rest as it was, and still calls Next back', () => {
    const pruned = pruneBuildManifest(MANIFEST)!;
    const before = load(MANIFEST);
    const after = load(pruned);
    expect(after.called).toBe(1);
    expect(after.globals.__BUILD_MANIFEST!.sortedPages).toEqual(['/500', '/_app', '/_brand/[brand]/[[...path]]', '/_error']);
    expect(Object.keys(after.globals.__BUILD_MANIFEST!).sort()).toEqual(['/500', '/_brand/[brand]/[[...path]]', '/_error', '__rewrites', 'sortedPages']);
    expect(Object.keys(after.globals.__TURBOPACK_PAGE_BOOTSTRAP!).sort()).toEqual(['/500', '/_app', '/_brand/[brand]/[[...path]]', '/_error']);
    for (const page of ['/500', '/_brand/[brand]/[[...path]]', '/_error', '__rewrites'])
      expect(after.globals.__BUILD_MANIFEST![page]).toEqual(before.globals.__BUILD_MANIFEST![page]);
    for (const page of ['/500', '/_app', '/_brand/[brand]/[[...path]]', '/_error'])
      expect(after.globals.__TURBOPACK_PAGE_BOOTSTRAP![page]).toEqual(before.globals.__TURBOPACK_PAGE_BOOTSTRAP![page]);
    expect(after.globals.__TURBOPACK_CHUNK_LOADING_GLOBAL).toBe('TURBOPACK');
    expect(pruned).not.toMatch(/_console|\/api\//);
    expect(pruneBuildManifest(pruned)).toBe(pruned);
  });

  it.each([
    ['not a script', 'self.__BUILD_MANIFEST = {'],
    ['no manifest', 'self.__SSG_MANIFEST=new Set([])'],
    ['a manifest without a page list', 'self.__BUILD_MANIFEST = {"/_app": []}'],
    ['code beside the data', `${MANIFEST};self.__OTHER = () => 1`],
    ['a set beside the data', `${MANIFEST};self.__OTHER = new Set(["/a"])`],
  ])('a script in a form it does not know (%s) is left as it is', (_name, script) => {
    expect(pruneBuildManifest(script)).toBeUndefined();
  });

  it('rewrites each build’s _buildManifest.js under .next/static, once however often it runs; chunks untouched', () => {
    const dir = mkdtempSync(join(tmpdir(), 'manifest-'));
    mkdirSync(join(dir, 'build-1'));
    mkdirSync(join(dir, 'chunks'));
    writeFileSync(join(dir, 'build-1', '_buildManifest.js'), MANIFEST);
    writeFileSync(join(dir, 'build-1', '_ssgManifest.js'), 'self.__SSG_MANIFEST=new Set([])');
    writeFileSync(join(dir, 'chunks', 'a.js'), 'console.log(1)');
    expect(pruneBuildManifests(dir)).toBe(1);
    expect(pruneBuildManifests(dir)).toBe(0);
    expect(readFileSync(join(dir, 'build-1', '_buildManifest.js'), 'utf8')).toBe(pruneBuildManifest(MANIFEST));
    expect(readFileSync(join(dir, 'build-1', '_ssgManifest.js'), 'utf8')).toBe('self.__SSG_MANIFEST=new Set([])');
  });
});
