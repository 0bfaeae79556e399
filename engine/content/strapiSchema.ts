/**
 * A Strapi-v4-shaped GraphQL schema over the embedded store: {key}Lists(filters, pagination,
 * sort, publicationState) → { data { id attributes } meta { pagination } }. It serves the
 * local-mode browser endpoint (/api/content/graphql) and the contract tests' real server, so
 * the Strapi client is tested against exactly the shapes it reads.
 */
import { buildSchema, execute, graphql, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLResolveInfo } from 'graphql';
import { resolvedListBytes } from './answerSize';
import { queryIndex, type ContentIndex } from './embedded';
import { QUERY_LIMITS } from './queryLimits';
import { QueryRefused, SelectionWalk } from './selections';
import { COLLECTIONS, type Collection, type ListFilters, type Market, type PublicationState } from './types';

const cap = (c: string) => c.charAt(0).toUpperCase() + c.slice(1);

const STRAPI_SDL = `
scalar JSON
enum PublicationState { LIVE PREVIEW }
input PaginationArg { page: Int pageSize: Int }
input StringFilterInput { eq: String contains: String }
${COLLECTIONS.map((c) => `input ${cap(c)}ListFiltersInput { slug: StringFilterInput category: StringFilterInput tags: StringFilterInput author: StringFilterInput brands: StringFilterInput or: [${cap(c)}ListFiltersInput] }`).join('\n')}
type EntryAttributes { url: String! slug: String! h1: String! title: String! description: String! category: String extras: JSON brands: [String!]! publishedAt: String updatedAt: String! }
type Entry { id: ID! attributes: EntryAttributes! }
type Pagination { total: Int! page: Int! pageSize: Int! pageCount: Int! }
type ResponseMeta { pagination: Pagination! }
type EntryListResponse { data: [Entry!]! meta: ResponseMeta! }
type Query {
${COLLECTIONS.map((c) => `  ${c}Lists(filters: ${cap(c)}ListFiltersInput, pagination: PaginationArg, sort: [String], publicationState: PublicationState = LIVE): EntryListResponse!`).join('\n')}
}`;

export const strapiSchema = buildSchema(STRAPI_SDL);
const schema = strapiSchema;

/** GraphQL input as it arrives: an input object, a list, and any item of a list may be null. */
type StrapiFilter = {
  slug?: { eq?: string } | null;
  category?: { eq?: string } | null;
  tags?: { contains?: string } | null;
  author?: { eq?: string } | null;
  or?: ({ brands?: { contains?: string } | null } | null)[] | null;
};
const MARKETS = new Set(['us', 'ca', 'au']);

/** Strapi filter syntax → the store's filters (the subset the engine sends). */
function fromStrapiFilters(f: StrapiFilter | null | undefined): ListFilters {
  const out: ListFilters = {};
  if (f?.slug?.eq !== undefined) out.slug = f.slug.eq;
  if (f?.category?.eq !== undefined) out.category = f.category.eq;
  if (f?.tags?.contains !== undefined) out.tag = f.tags.contains;
  if (f?.author?.eq !== undefined) out.author = f.author.eq;
  const brands = (f?.or ?? []).map((o) => o?.brands?.contains).filter((v): v is string => !!v);
  const market = brands.find((b) => MARKETS.has(b));
  const id = brands.find((b) => !MARKETS.has(b));
  if (market && id) out.brand = { id, market: market as Market };
  return out;
}

/**
 * maxBytes: the answer's cap. Each list adds what it returned to the answer's size as it is
 * resolved, and once the size is past the cap the lists left are not resolved at all.
 */
function rootValue(index: ContentIndex, opts: { allowPreview: boolean; maxBytes?: number }) {
  const root: Record<string, unknown> = {};
  let bytes = 0;
  const tooLarge = () => new QueryRefused(`The answer would be larger than ${opts.maxBytes} bytes; ask for fewer entries`);
  for (const c of COLLECTIONS) {
    root[`${c}Lists`] = (
      args: { filters?: StrapiFilter | null; pagination?: { page?: number; pageSize?: number } | null; sort?: (string | null)[] | null; publicationState?: PublicationState | null },
      _context: unknown,
      info?: GraphQLResolveInfo,
    ) => {
      // a refusal the client is told, not a failure of ours
      if (args.publicationState === 'PREVIEW' && !opts.allowPreview) throw new QueryRefused('PREVIEW content needs draft mode');
      if (opts.maxBytes !== undefined && bytes > opts.maxBytes) throw tooLarge();
      const result = queryIndex(index, c as Collection, {
        filters: fromStrapiFilters(args.filters),
        pagination: { page: args.pagination?.page ?? 1, pageSize: args.pagination?.pageSize ?? 25 },
        // `sort: [String]` lets a client send null items: they name no field, so they sort by none.
        sort: args.sort?.filter((s): s is string => s !== null) ?? ['publishedAt:desc'],
        publicationState: args.publicationState ?? 'LIVE',
      });
      if (opts.maxBytes !== undefined && info) {
        const field = { key: info.path.key as string, name: info.fieldName, nodes: info.fieldNodes };
        bytes += resolvedListBytes(index, field, new SelectionWalk(info.fragments, QUERY_LIMITS.MAX_SELECTIONS), result.data);
        if (bytes > opts.maxBytes) throw tooLarge();
      }
      return result;
    };
  }
  return root;
}

export function executeStrapiQuery(index: ContentIndex, body: { query: string; variables?: Record<string, unknown> }, opts: { allowPreview: boolean }): Promise<ExecutionResult> {
  return graphql({ schema, source: body.query, variableValues: body.variables ?? {}, rootValue: rootValue(index, opts) });
}

/** Runs a document already parsed and checked (see queryLimits.ts). */
export async function executeCheckedQuery(
  index: ContentIndex,
  document: DocumentNode,
  variables: Record<string, unknown>,
  opts: { allowPreview: boolean; maxBytes?: number },
): Promise<ExecutionResult> {
  const result = await execute({ schema, document, variableValues: variables, rootValue: rootValue(index, opts) });
  return result.errors ? { ...result, errors: result.errors.map(publicError) } : result;
}

/**
 * What a client is told of an error: GraphQL's own words about its query, and our refusals; an
 * error a resolver did not mean (a bug, an exhausted stack) is logged here and told as a failure
 * of that field, never with its message.
 */
function publicError(error: GraphQLError): GraphQLError {
  const cause = error.originalError;
  if (!cause || cause instanceof QueryRefused || cause instanceof GraphQLError) return error;
  console.error('[content] a query field failed:', cause);
  return new GraphQLError('This field could not be answered', { nodes: error.nodes, path: error.path });
}
