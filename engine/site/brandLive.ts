/**
 * The brands the server serves are the files overlaid by the newest published revision of each
 * (engine/store/brandRevisions.ts), kept current on every instance without a restart:
 * - the published revisions are a kind of the live revisions (engine/store/liveRevisions.ts): the
 *   instance that publishes takes them at once, the others through Redis at once or their next
 *   poll (REVISIONS_POLL_MS, 2 s by default) — within 5 s everywhere;
 * - each new set rebuilds the catalog once (engine/site/catalog.ts getCatalog), not per request,
 *   and the pages of the brands whose documents changed are dropped from the page cache (this
 *   process's, or Redis's: engine/cache/brandPages.mjs) — the other brands stay cache hits;
 * - publications set for later are made by whichever instance sees them due first (checked at
 *   each poll), refused when the validator finds a problem in them (or, in a deployment, a
 *   placeholder logo: the studio's Publish refuses the same);
 * - a bandit experiment's weights, as last set (engine/site/experiments/allocation.ts), follow
 *   the same way;
 * - the pages the CMS webhook revalidates are announced to the other instances
 *   (pageChangedEverywhere), so a render of one under way there from the old content is not
 *   stored over the revalidated page either (engine/cache/brandRenders.mjs).
 * Started by the server (server.mjs, through the front door) only: the build, the validator and
 * the tests that read brand files never open the store for it.
 */
import type { Brand } from '../../schemas/brand.types';
import { dropBrandPages } from '../cache/brandPages.mjs';
import { awaitingPublishedBrands, pageChanged, publishedBrandsRead } from '../cache/brandRenders.mjs';
import { BRAND_PUBLISHED, publishDueBrands } from '../store/brandRevisions';
import { getStore, type Store } from '../store/db';
import { announce, currentRevisions, onAnnouncement, onRevisions, publishRevision, revisionsReady } from '../store/liveRevisions';
import { checkBrandDocument } from './brandOverlay';
import { placeholderLogoProblems } from './placeholderLogo';
import { applyBanditWeights } from './experiments/allocation';
import { EXPERIMENT_WEIGHTS, type BanditWeights } from '../store/banditWeightsKey';
import { getCatalog, onCatalogChange, setBrandRevisionSource, type Catalog } from './catalog';

const WATCHING = Symbol.for('loansites.brandLive');
const holder = globalThis as { [WATCHING]?: Promise<void> };

const pollMs = () => Math.max(100, Number(process.env.REVISIONS_POLL_MS) || 2000);

/** The announcements of a page about to be rendered again because its content changed (the CMS webhook). */
const PAGE_CHANGED = 'page-changed';
/** A brand page's internal path as announced: anything else on the channel is not one. */
const isBrandPagePath = (path: string) => /^\/_brand\/[a-z0-9][a-z0-9-]*(?:\/[^\s]*)?$/.test(path) && path.length <= 2048;

/**
 * The page at `internalPath` is about to be rendered again because its content changed: noted
 * here (engine/cache/brandRenders.mjs pageChanged) and announced to the other instances, which
 * note it too as they hear it. Called before the revalidation's render begins.
 */
export async function pageChangedEverywhere(internalPath: string): Promise<void> {
  pageChanged(internalPath);
  // never holds the webhook long for Redis (liveRevisions' tell); this instance's own note stands regardless
  await announce(PAGE_CHANGED, internalPath);
}

/**
 * Why a document may not go live, as the validator says it first, or in a deployment its
 * placeholder logo — the checks the studio's Publish makes; undefined when it may.
 */
export async function publishRefusal(db: Store, id: string, document: Brand): Promise<string | undefined> {
  return checkBrandDocument(id, document).problems[0]?.text ?? (await placeholderLogoProblems(db, id, document))[0]?.text;
}

async function publishDue(): Promise<void> {
  try {
    const db = await getStore();
    const made = await publishDueBrands(db, new Date(), (id, document) => publishRefusal(db, id, document));
    if (made.length) {
      console.log(`[brands] published as scheduled: ${made.join(', ')}`);
      await publishRevision(BRAND_PUBLISHED);
    }
  } catch (err) {
    console.error(`[brands] scheduled publications not checked: ${(err as Error).message}`);
  }
}

/**
 * Starts applying published revisions (once per process); resolves once the first set was read
 * (or could not be: the files serve meanwhile), within `waitMs`.
 */
export function watchBrandRevisions(opts: { onChange?: (catalog: Catalog, changed: ReadonlySet<string>) => void; waitMs?: number } = {}): Promise<void> {
  if (opts.onChange) onCatalogChange(opts.onChange);
  if (holder[WATCHING]) return holder[WATCHING];
  // until the published documents are first read (the store may be down as the instance starts),
  // the brands' files serve, and their pages stay out of the shared page cache
  awaitingPublishedBrands();
  onRevisions(BRAND_PUBLISHED, publishedBrandsRead);
  setBrandRevisionSource(() => currentRevisions<Brand>(BRAND_PUBLISHED));
  onCatalogChange((_catalog, changed) => {
    for (const id of changed)
      dropBrandPages(id).catch((err: Error) => console.error(`[brands] the cached pages of "${id}" could not all be dropped: ${err.message}`));
  });
  // a new set rebuilds the catalog at once (not at the next request for a page)
  onRevisions(BRAND_PUBLISHED, () => void getCatalog());
  // the bandit's weights as they are set, on every instance (the front door's assignment reads them from memory)
  onRevisions<BanditWeights>(EXPERIMENT_WEIGHTS, applyBanditWeights);
  onAnnouncement(PAGE_CHANGED, (path) => {
    if (isBrandPagePath(path)) pageChanged(path);
  });
  const timer = setInterval(() => void publishDue(), pollMs());
  timer.unref();
  const ready = revisionsReady(BRAND_PUBLISHED).then(() => void getCatalog());
  const wait = new Promise<void>((resolve) => setTimeout(resolve, opts.waitMs ?? 5000).unref());
  holder[WATCHING] = Promise.race([ready, wait]);
  return holder[WATCHING];
}
