/**
 * Strapi v4 GraphQL client (SPEC §7 CMS list): POST, Authorization: Bearer, collection query
 * named {key}Lists with filters, pagination, sort and publicationState; the response read as
 * data[{id, attributes}] + meta.pagination. A call that takes too long fails with a
 * TimeoutError 'Timeout of {n}ms.'; an HTTP error, a body that is not JSON, GraphQL errors or
 * an unexpected shape each fail with a ContentError that says which.
 */
import { deadline } from '../process/deadline';
import { contentPath } from './paths';
import { ContentError, TimeoutError, type Collection, type ContentSource, type Entry, type ListFilters, type ListQuery, type ListResult } from './types';

/** SPEC §9: the CMS list client's default time-out. */
const CMS_DEFAULT_TIMEOUT_MS = 2000;

export interface StrapiOptions {
  url: string;
  token: string;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

const typeName = (collection: Collection) => `${collection.charAt(0).toUpperCase()}${collection.slice(1)}ListFiltersInput`;

/** Our filters in Strapi v4's filter syntax. */
function strapiFilters(f: ListFilters = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (f.slug !== undefined) out.slug = { eq: f.slug };
  if (f.category !== undefined) out.category = { eq: f.category };
  if (f.tag !== undefined) out.tags = { contains: f.tag };
  if (f.author !== undefined) out.author = { eq: f.author };
  if (f.brand) out.or = [{ brands: { contains: f.brand.id } }, { brands: { contains: f.brand.market } }];
  return out;
}

function listQueryText(collection: Collection): string {
  return `query ${collection}List($filters: ${typeName(collection)}, $pagination: PaginationArg, $sort: [String], $publicationState: PublicationState) {
  ${collection}Lists(filters: $filters, pagination: $pagination, sort: $sort, publicationState: $publicationState) {
    data { id attributes { url slug h1 title description category extras brands publishedAt updatedAt } }
    meta { pagination { total page pageSize pageCount } }
  }
}`;
}

function isListResult(v: unknown): v is ListResult {
  const r = v as ListResult | undefined;
  return !!r && Array.isArray(r.data) && typeof r.meta?.pagination?.total === 'number' && r.data.every((e) => typeof e?.id === 'string' && typeof e.attributes?.slug === 'string');
}

/** A slug a route can name ({slug}: a-z, 0-9, single hyphens, at least one letter). */
const PAGE_SLUG = /^(?=[a-z0-9-]*[a-z])[a-z0-9]+(?:-[a-z0-9]+)*$/;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

/**
 * The day a Strapi date names: Strapi sends publishedAt and updatedAt as DateTime
 * ("2025-12-01T09:30:00.000Z"), the contract (and the embedded store) as a day ("2025-12-01"),
 * which is what pages show. Undefined for a value that is not a real date.
 */
export function dayOf(v: unknown): string | undefined {
  const m = typeof v === 'string' ? /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(v) : null;
  if (!m || Number.isNaN(Date.parse(v as string))) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) ? m[0].slice(0, 10) : undefined;
}

/**
 * An entry as Strapi sent it → the contract's shape. Strapi leaves an optional field null: a
 * missing heading is the title (and the other way round), a missing description empty, a date
 * that is not one left out. Its url is where the content routes put its page (engine/content/paths.ts),
 * whatever the CMS wrote there: a url of its own would be a link to a 404, or off the site. An
 * entry that cannot be shown (neither heading nor title, an article without a category, a slug
 * no address can have) is dropped and logged, rather than a page that reads "null" or a dead link.
 */
function entryOf(collection: Collection, e: Entry): Entry | undefined {
  const a = e.attributes as unknown as Record<string, unknown>;
  const h1 = text(a.h1) ?? text(a.title);
  const title = text(a.title) ?? h1;
  const category = typeof a.category === 'string' ? a.category : null;
  const leftOut = (why: string) => void console.error(`[content] ${collection} ${e.id} (${String(a.slug)}) left out: ${why}`);
  if (!h1 || !title) return leftOut('it has no title or h1');
  // a page's address is lower-case (the front door redirects any other to it), so an entry whose
  // slug is not could be listed but never opened
  if (!PAGE_SLUG.test(e.attributes.slug)) return leftOut('its slug is not lower-case letters, digits and hyphens');
  if (collection === 'article' && (!category || !PAGE_SLUG.test(category))) return leftOut('it has no category a page address can have');
  const publishedAt = a.publishedAt === null || a.publishedAt === undefined ? null : (dayOf(a.publishedAt) ?? null);
  return {
    id: e.id,
    attributes: {
      url: contentPath(collection, e.attributes.slug, category),
      slug: e.attributes.slug,
      h1,
      title,
      description: typeof a.description === 'string' ? a.description : '',
      category,
      extras: a.extras && typeof a.extras === 'object' && !Array.isArray(a.extras) ? (a.extras as Entry['attributes']['extras']) : null,
      brands: Array.isArray(a.brands) ? a.brands.filter((b): b is string => typeof b === 'string') : [],
      publishedAt,
      updatedAt: dayOf(a.updatedAt) ?? publishedAt ?? '',
    },
  };
}

export function createStrapiClient(opts: StrapiOptions): ContentSource {
  const timeoutMs = opts.timeoutMs ?? CMS_DEFAULT_TIMEOUT_MS;
  const doFetch = opts.fetchImpl ?? fetch;
  return {
    kind: 'strapi',
    async list(collection: Collection, query: ListQuery): Promise<ListResult> {
      // a deadline, not a plain timer: content that came in time while this process was busy
      // rendering other pages is read, not turned into a failed page
      const { signal, clear } = deadline(timeoutMs);
      try {
        let res: Response;
        let text: string;
        try {
          res = await doFetch(opts.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.token}` },
            body: JSON.stringify({
              query: listQueryText(collection),
              variables: {
                filters: strapiFilters(query.filters),
                pagination: query.pagination ?? { page: 1, pageSize: 25 },
                sort: query.sort ?? ['publishedAt:desc'],
                publicationState: query.publicationState ?? 'LIVE',
              },
            }),
            signal,
          });
          text = await res.text();
        } catch (err) {
          if (signal.aborted) throw new TimeoutError(timeoutMs);
          throw new ContentError(`Content service could not be reached: ${(err as Error).message}`);
        }
        if (!res.ok) throw new ContentError(`Content service answered HTTP ${res.status}`);
        let body: { data?: Record<string, unknown>; errors?: { message: string }[] };
        try {
          body = JSON.parse(text) as typeof body;
        } catch {
          throw new ContentError('Content service sent a response that is not JSON');
        }
        if (body.errors?.length) throw new ContentError(`Content service error: ${body.errors.map((e) => e.message).join('; ')}`);
        const result = body.data?.[`${collection}Lists`];
        if (!isListResult(result)) throw new ContentError(`Content service sent an unexpected response for ${collection}Lists`);
        return { data: result.data.map((e) => entryOf(collection, e)).filter((e): e is Entry => !!e), meta: result.meta };
      } finally {
        clear();
      }
    },
  };
}

/** SPEC §8: a category query must name its category. */
export function listByCategory(source: ContentSource, opts: { categoryName?: string; query?: ListQuery }): Promise<ListResult> {
  if (!opts.categoryName) throw new ContentError('categoryName is not defined');
  return source.list('article', { ...opts.query, filters: { ...opts.query?.filters, category: opts.categoryName } });
}
