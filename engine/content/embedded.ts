/**
 * The embedded content store: content/ files loaded and indexed once, queried with the same
 * operations (filters, pagination, sort, publication state) the engine uses against Strapi.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import matter from 'gray-matter';
import contentSchema from '../../schemas/content.schema.json' with { type: 'json' };
import { contentPath } from './paths';
import { LINEAR_ERRORS_CODE } from '../validate/linearErrors';
import type { Collection, ContentSource, Entry, EntryAttributes, ListQuery, ListResult } from './types';

type Raw = Record<string, unknown>;
const ajv = new Ajv2020({ allErrors: true, strict: false, code: LINEAR_ERRORS_CODE });
ajv.addSchema(contentSchema);
const validators = {
  article: ajv.getSchema('https://loansites.dev/schemas/content.schema.json#/$defs/article')!,
  answer: ajv.getSchema('https://loansites.dev/schemas/content.schema.json#/$defs/answer')!,
  hub: ajv.getSchema('https://loansites.dev/schemas/content.schema.json#/$defs/hub')!,
  author: ajv.getSchema('https://loansites.dev/schemas/content.schema.json#/$defs/author')!,
};

const FOLDERS = { article: 'articles', answer: 'answers', hub: 'hub', author: 'authors' } as const;
const ALL_MARKETS = ['us', 'ca', 'au'];
const date = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v));

export interface ContentProblem {
  file: string;
  message: string;
}

export interface ContentIndex {
  entries: Map<Collection, Entry[]>;
  problems: ContentProblem[];
}

let index: ContentIndex | undefined;
/** The content/ folder's index (LOANSITES_ROOT or the working directory), read once; its problems logged. */
export function embeddedIndex(): ContentIndex {
  if (!index) {
    index = loadContent(join(/* turbopackIgnore: true */ process.env.LOANSITES_ROOT || process.cwd(), 'content'));
    for (const p of index.problems) console.error(`[content] ${p.file}: ${p.message}`);
  }
  return index;
}

/** Read and check every content file under a root folder (content/ by default). */
export function loadContent(root: string): ContentIndex {
  const entries = new Map<Collection, Entry[]>();
  const problems: ContentProblem[] = [];
  for (const collection of ['article', 'answer', 'hub', 'author'] as const) {
    const folder = join(/* turbopackIgnore: true */ root, FOLDERS[collection]);
    let files: string[] = [];
    try {
      files = readdirSync(folder).filter((f) => f.endsWith('.md')).sort();
    } catch {
      /* no folder: no entries */
    }
    const list: Entry[] = [];
    for (const name of files) {
      const file = `content/${FOLDERS[collection]}/${name}`;
      const slug = name.replace(/\.md$/, '');
      let fm: Raw;
      let body: string;
      try {
        // With options (none needed), gray-matter keeps no copy of every file it parsed in its module-wide cache.
        const parsed = matter(readFileSync(join(folder, name), 'utf8'), {});
        fm = Object.fromEntries(Object.entries(parsed.data).map(([k, v]) => [k, k.endsWith('At') ? date(v) : v]));
        body = parsed.content.trim();
      } catch (err) {
        problems.push({ file, message: `front matter is not valid YAML: ${(err as Error).message.split('\n')[0]}` });
        continue;
      }
      const validate = validators[collection];
      if (!validate(fm)) {
        problems.push({ file, message: (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ') });
        continue;
      }
      const category = typeof fm.category === 'string' ? fm.category : null;
      const attributes: EntryAttributes = {
        url: contentPath(collection, slug, category),
        slug,
        h1: String(fm.h1 ?? fm.question ?? fm.name ?? fm.title),
        title: String(fm.title ?? fm.name),
        description: String(fm.description ?? (collection === 'author' ? `${String(fm.name)}, ${String(fm.role)}.` : '')),
        category,
        extras: {
          body,
          ...(typeof fm.author === 'string' ? { author: fm.author } : {}),
          ...(Array.isArray(fm.tags) ? { tags: fm.tags as string[] } : {}),
          ...(Array.isArray(fm.faq) ? { faq: fm.faq as { question: string; answer: string }[] } : {}),
          ...(typeof fm.role === 'string' ? { role: fm.role } : {}),
        },
        brands: fm.brands as string[],
        publishedAt: fm.status === 'draft' ? null : String(fm.publishedAt ?? '2025-01-01'),
        updatedAt: String(fm.updatedAt ?? fm.publishedAt ?? '2025-01-01'),
      };
      list.push({ id: `${collection}-${slug}`, attributes });
    }
    entries.set(collection, list);
  }
  for (const [collection, file] of [['category', 'categories.json'], ['tag', 'tags.json']] as const) {
    let items: { slug: string; name: string; description?: string }[] = [];
    try {
      items = JSON.parse(readFileSync(join(/* turbopackIgnore: true */ root, file), 'utf8')) as typeof items;
    } catch (err) {
      problems.push({ file: `content/${file}`, message: (err as Error).message });
    }
    entries.set(
      collection,
      items.map((i) => ({
        id: `${collection}-${i.slug}`,
        attributes: {
          url: contentPath(collection, i.slug, null),
          slug: i.slug,
          h1: i.name,
          title: i.name,
          description: i.description ?? `Guides about ${i.name.toLowerCase()}.`,
          category: null,
          extras: null,
          brands: ALL_MARKETS,
          publishedAt: '2025-01-01',
          updatedAt: '2025-01-01',
        },
      })),
    );
  }
  // References that must exist: categories, tags and authors of each entry.
  const slugs = (c: Collection) => new Set((entries.get(c) ?? []).map((e) => e.attributes.slug));
  const [categories, tags, authors] = [slugs('category'), slugs('tag'), slugs('author')];
  for (const c of ['article', 'answer', 'hub'] as const) {
    for (const e of entries.get(c) ?? []) {
      const a = e.attributes;
      const file = `content/${FOLDERS[c]}/${a.slug}.md`;
      if (a.category && !categories.has(a.category)) problems.push({ file, message: `unknown category "${a.category}"` });
      for (const t of a.extras?.tags ?? []) if (!tags.has(t)) problems.push({ file, message: `unknown tag "${t}"` });
      if (a.extras?.author && !authors.has(a.extras.author)) problems.push({ file, message: `unknown author "${a.extras.author}"` });
    }
  }
  return { entries, problems };
}

function compare(field: string, dir: string) {
  const sign = dir === 'desc' ? -1 : 1;
  return (a: Entry, b: Entry) => {
    const x = (a.attributes as unknown as Record<string, string | null>)[field];
    const y = (b.attributes as unknown as Record<string, string | null>)[field];
    if (x === y) return 0;
    if (x === null || x === undefined) return 1; // nulls (drafts) last
    if (y === null || y === undefined) return -1;
    return x < y ? -sign : sign;
  };
}

/** The list operation over an index: the semantics the Strapi schema in tests reproduces. */
export function queryIndex(index: ContentIndex, collection: Collection, query: ListQuery): ListResult {
  const f = query.filters ?? {};
  let items = (index.entries.get(collection) ?? []).filter((e) => {
    const a = e.attributes;
    if ((query.publicationState ?? 'LIVE') === 'LIVE' && a.publishedAt === null) return false;
    if (f.slug !== undefined && a.slug !== f.slug) return false;
    if (f.category !== undefined && a.category !== f.category) return false;
    if (f.tag !== undefined && !(a.extras?.tags ?? []).includes(f.tag)) return false;
    if (f.author !== undefined && a.extras?.author !== f.author) return false;
    if (f.brand && !a.brands.includes(f.brand.id) && !a.brands.includes(f.brand.market)) return false;
    return true;
  });
  const sorts = (query.sort ?? ['publishedAt:desc']).map((s) => s.split(':') as [string, string]);
  items = [...items].sort((a, b) => {
    for (const [field, dir] of sorts) {
      const c = compare(field, dir ?? 'asc')(a, b);
      if (c) return c;
    }
    return a.attributes.slug.localeCompare(b.attributes.slug);
  });
  const pageSize = Math.max(1, Math.min(100, query.pagination?.pageSize ?? 25));
  const page = Math.max(1, query.pagination?.page ?? 1);
  const total = items.length;
  return {
    data: items.slice((page - 1) * pageSize, page * pageSize),
    meta: { pagination: { total, page, pageSize, pageCount: Math.ceil(total / pageSize) } },
  };
}

export function createEmbeddedSource(index: ContentIndex): ContentSource {
  return { kind: 'embedded', list: async (collection, query) => queryIndex(index, collection, query) };
}
