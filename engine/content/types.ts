/**
 * The content contract (SPEC §3 CMS list entry and response, §7 CMS list call): the same
 * shapes whether the embedded store or a Strapi v4 GraphQL endpoint answers.
 */
export const COLLECTIONS = ['article', 'answer', 'hub', 'author', 'category', 'tag'] as const;
export type Collection = (typeof COLLECTIONS)[number];
export type PublicationState = 'LIVE' | 'PREVIEW';
export type Market = 'us' | 'ca' | 'au';

export interface FaqItem {
  question: string;
  answer: string;
}

/** Optional extras of an entry (SPEC: "optional extras"): the parts only some collections have. */
export interface EntryExtras {
  /** Markdown body */
  body?: string;
  author?: string;
  tags?: string[];
  faq?: FaqItem[];
  role?: string;
}

export interface EntryAttributes {
  /** path of the entry's page on a brand, e.g. /blog/payday-loans/how-apr-works */
  url: string;
  slug: string;
  h1: string;
  title: string;
  description: string;
  category: string | null;
  extras: EntryExtras | null;
  /** who shows it: market groups (us, ca, au) and/or brand ids */
  brands: string[];
  /** null for drafts */
  publishedAt: string | null;
  updatedAt: string;
}

export interface Entry {
  id: string;
  attributes: EntryAttributes;
}

export interface Pagination {
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

export interface ListResult {
  data: Entry[];
  meta: { pagination: Pagination };
}

export interface ListFilters {
  slug?: string;
  category?: string;
  tag?: string;
  author?: string;
  /** entries shown on this brand: assigned to its id or to its market */
  brand?: { id: string; market: Market };
}

export interface ListQuery {
  filters?: ListFilters;
  pagination?: { page: number; pageSize: number };
  /** e.g. ['publishedAt:desc'], ['title:asc'] */
  sort?: string[];
  publicationState?: PublicationState;
}

/** What both back ends implement. */
export interface ContentSource {
  readonly kind: 'embedded' | 'strapi';
  list(collection: Collection, query: ListQuery): Promise<ListResult>;
}

export const DEFAULT_PAGE_SIZE = 5;

export class TimeoutError extends Error {
  override name = 'TimeoutError';
  constructor(ms: number) {
    super(`Timeout of ${ms}ms.`);
  }
}

export class ContentError extends Error {
  override name = 'ContentError';
}

/** What the content blocks get from the content service (their specs: blocks/contentList, blocks/contentBody). */
export interface ListItemView {
  title: string;
  href: string;
  description: string;
  date: string | null;
}

export interface ContentListData {
  items: ListItemView[];
  pages?: { current: number; count: number };
  error?: true;
}

export interface ContentBodyData {
  collection: string;
  html: string;
  h1: string;
  url: string;
  publishedAt: string | null;
  updatedAt: string;
  /** no href where the author's page is not shown (the brand is not among the author's) */
  author?: { name: string; href?: string };
  tags: { name: string; href: string }[];
  category?: { name: string; href: string };
  faq: { question: string; answer: string }[];
}
