// @ts-check
/**
 * A brand page rendered from a document that changed while it was being rendered is not stored.
 *
 * A publish drops the brand's cached pages (./brandPages.mjs) once this process's catalog holds
 * the new document. A render that read the catalog before that and stores its page after it
 * would put the old page back, for the page's whole lifetime in the cache (an hour), on every
 * instance sharing the cache. So each render notes when it began (renderBegins, called by the
 * brand page before it reads the catalog), each change of a brand is noted (brandChanged, called
 * by dropBrandPages before it drops anything), and the page cache handlers ask renderIsCurrent
 * before storing a page: a page whose brand changed since its render began is answered to the
 * visitor who asked for it and not kept — the next request renders it from the new document.
 *
 * The CMS webhook's revalidation (pages/api/revalidate.ts) notes the pages it renders again the
 * same way (pageChanged), here and on every instance that hears of it (engine/site/brandLive.ts):
 * a render that read the content before the webhook and stores after the revalidated page would
 * put the old content back. A refused page also takes out what the cache
 * holds for its key, which a publish has already dropped but a revalidation has not.
 *
 * Per process, on globalThis: Next bundles the brand page and loads the cache handler apart, and
 * every copy must see the same notes. Every instance notes its own renders and drops again when
 * it hears of the change, so a page another instance stored before that is dropped too.
 */

const NOTES = Symbol.for('loansites.brandRenders');
/** Pages with a render noted at most: past that the oldest note goes (its page is stored as before). */
export const RENDERS_NOTED = 4096;
/**
 * A page's note lasts this long from the render that made it: a render that stores nothing (a
 * content failure, draft mode) never ends its note, which would otherwise refuse the page's later
 * renders after a change for as long as they kept overlapping it. A page is rendered well within
 * it (the content service is awaited 5 s at most, a request 20 s).
 */
export const RENDER_NOTE_MS = 60_000;

/**
 * @typedef {{ began: number, pending: number, at: number }} Note
 * began: the count of changes when the oldest of the page's unstored renders began; pending: how
 * many began and have not stored yet; at: when that oldest one began (ms).
 * @typedef {{ changes: number, last: string, changedAt: Map<string, number>, pageChangedAt: Map<string, number>, renders: Map<string, Note>, awaiting?: boolean }} Notes
 * changes: brand and page changes this process has seen; changedAt: brand id → the count when it
 * last changed; pageChangedAt: a page's internal path → the count when it was last revalidated;
 * last: the brand id or page path noted last; awaiting: the published brand documents are still
 * to be read from the store (publishedBrandsKnown).
 */

/** @returns {Notes} */
function notes() {
  const holder = /** @type {{ [NOTES]?: Notes }} */ (/** @type {unknown} */ (globalThis));
  return (holder[NOTES] ??= { changes: 0, last: '', changedAt: new Map(), pageChangedAt: new Map(), renders: new Map() });
}

/** The internal path of a page cache key (`…/_brand/{id}{path}`), undefined for any other page. */
function internalPathOf(/** @type {string} */ key) {
  const at = key.indexOf('/_brand/');
  return at < 0 ? undefined : key.slice(at);
}

/**
 * A render of the page at `internalPath` (/_brand/{id}{path}) begins: called before it reads the
 * catalog. While renders of a page overlap, the note keeps the oldest: a page stored by any of
 * them is refused if the brand changed since the oldest began (one more render, never an old page).
 * @param {string} internalPath
 * @param {number} [now] ms, for tests
 */
export function renderBegins(internalPath, now = Date.now()) {
  const n = notes();
  const note = n.renders.get(internalPath);
  if (note && now - note.at <= RENDER_NOTE_MS) {
    note.pending++;
    return;
  }
  n.renders.delete(internalPath);
  n.renders.set(internalPath, { began: n.changes, pending: 1, at: now });
  if (n.renders.size > RENDERS_NOTED) n.renders.delete(/** @type {string} */ (n.renders.keys().next().value));
}

/**
 * The brand's document changed in this process's catalog: called before its pages are dropped,
 * in the same turn as the change, so no render can begin between the two unnoticed.
 * @param {string} id
 */
export function brandChanged(id) {
  const n = notes();
  n.changedAt.set(id, ++n.changes);
  n.last = id;
}

/**
 * The page at `internalPath` is about to be rendered again because what it shows changed (the
 * CMS webhook): called before the revalidation's render begins.
 * @param {string} internalPath
 */
export function pageChanged(internalPath) {
  const n = notes();
  n.pageChangedAt.delete(internalPath);
  n.pageChangedAt.set(internalPath, ++n.changes);
  n.last = internalPath;
  if (n.pageChangedAt.size > RENDERS_NOTED) n.pageChangedAt.delete(/** @type {string} */ (n.pageChangedAt.keys().next().value));
}

/**
 * Whether the page about to be stored under `key` was rendered from its brand's current document:
 * false when the brand or the page changed since the page's (oldest unstored) render began; the
 * handler then stores nothing and takes out what it holds for the key. A page with no
 * note (not a brand page, or its note pushed out) is stored, as before.
 * @param {string} key
 * @param {number} [now] ms, for tests
 */
export function renderIsCurrent(key, now = Date.now()) {
  const path = internalPathOf(key);
  if (path === undefined) return true;
  const n = notes();
  const note = n.renders.get(path);
  if (!note) return true;
  if (--note.pending <= 0 || now - note.at > RENDER_NOTE_MS) n.renders.delete(path);
  const id = path.slice('/_brand/'.length).split('/')[0] ?? '';
  return Math.max(n.changedAt.get(id) ?? 0, n.pageChangedAt.get(path) ?? 0) <= note.began;
}

/** How many brand and page changes this process has noted, and the last (the server's /__page-cache counters: for tests). */
export const changeCounters = () => ({ changesSeen: notes().changes, lastChange: notes().last });

/** How many pages have a render noted (for tests). */
export const rendersNoted = () => notes().renders.size;

/**
 * Whether this process's brands are the published documents. From the moment the server starts
 * reading them from the store (engine/site/brandLive.ts awaitingPublishedBrands) until the first
 * read succeeds (publishedBrandsRead) — the store down as the instance starts — each brand is
 * its file, without what the studio published since. Its pages are answered to the visitors of
 * this instance, but the shared page cache does not take them (engine/cache/redisPageCache.mjs):
 * the other instances, which hold the published documents, would serve them too.
 */
export const publishedBrandsKnown = () => !notes().awaiting;

/** The server starts reading the published brand documents from the store. */
export function awaitingPublishedBrands() {
  notes().awaiting = true;
}

/** The published brand documents were read from the store (each successful read calls it). */
export function publishedBrandsRead() {
  notes().awaiting = false;
}
