/**
 * The local-mode GraphQL endpoint is open to the internet: an amplifying query (hundreds of
 * aliased lists of 100 entries) must be refused with the reason before it runs, and a burst
 * of them must not grow the server's memory. The route handler runs in a real HTTP server.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Kind, parse, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import handler from '../../pages/api/content/graphql';
import { embeddedIndex, type ContentIndex } from '../../engine/content/embedded';
import { estimateAnswerBytes } from '../../engine/content/answerSize';
import { checkAnswerSize } from '../../engine/content/queryLimits';
import { SelectionWalk, type SelectedField } from '../../engine/content/selections';
import { executeCheckedQuery } from '../../engine/content/strapiSchema';

let server: Server;
let port = 0;
beforeAll(async () => {
  process.env.RATE_LIMIT_GRAPHQL = '100000';
  server = createServer((req, res) => void handler(req as never, res as never));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function post(body: string, type = 'application/json'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/content/graphql', headers: { 'content-type': type, host: 'ipaydayloans.localhost' } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
const q = (query: string, variables?: object) => JSON.stringify({ query, ...(variables ? { variables } : {}) });
/** Every field of an entry: the largest answer an entry can give. */
const everything = 'data { id attributes { url slug h1 title description category extras brands publishedAt updatedAt } } meta { pagination { total } }';
/** ~10 KB: 180 aliased lists of 100 entries each (the probe's query, in the schema's 10,000-character cap). */
const amplifying = `{${Array.from({ length: 180 }, (_, i) => `a${i}:articleLists(pagination:{pageSize:100}){data{id}}`).join(' ')}}`;

describe('POST /api/content/graphql limits', () => {
  it('answers an ordinary query', async () => {
    const res = await post(q('{ articleLists(pagination: {pageSize: 2}) { data { attributes { url } } meta { pagination { pageSize } } } }'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).data.articleLists.meta.pagination.pageSize).toBe(2);
  });

  it.each([
    ['180 aliased lists of 100', amplifying, 'At most 5 lists per query'],
    ['six aliases', `{ ${Array.from({ length: 6 }, (_, i) => `a${i}: articleLists { data { id } }`).join(' ')} }`, 'this one asks for 6'],
    ['a page of 100', '{ articleLists(pagination: {pageSize: 100}) { data { id } } }', 'pageSize 100 is over the limit of 50'],
    [
      'five pages of 50',
      `{ ${Array.from({ length: 5 }, (_, i) => `a${i}: articleLists(pagination: {pageSize: 50}) { data { id } }`).join(' ')} }`,
      'could return 250 entries',
    ],
    [
      'fragments that multiply',
      'query { ...F ...F2 } fragment F on Query { a: articleLists(pagination: {pageSize: 50}) { data { id } } b: answerLists(pagination: {pageSize: 50}) { data { id } } } fragment F2 on Query { c: hubLists(pagination: {pageSize: 50}) { data { id } } }',
      'could return 150 entries',
    ],
    ['a mutation', 'mutation { x }', ''],
    ['not GraphQL', 'hello', 'The query could not be read'],
  ])('%s → 400 with the reason', async (_label, query, reason) => {
    const res = await post(q(query));
    expect(res.status).toBe(400);
    if (reason) expect(res.text).toContain(reason);
  });

  it('drafts asked for outside draft mode → 400 that says so, not logged as a failure of the server', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await post(q('{ articleLists(publicationState: PREVIEW) { data { id } } }'));
    const calls = logged.mock.calls.length;
    logged.mockRestore();
    expect(res.status).toBe(400);
    expect(res.text).toContain('PREVIEW content needs draft mode');
    expect(calls).toBe(0);
  });

  it('a page size from variables counts too', async () => {
    const res = await post(q('query($p: PaginationArg) { articleLists(pagination: $p) { data { id } } }', { p: { pageSize: 90 } }));
    expect(res.status).toBe(400);
    expect(res.text).toContain('pageSize 90');
  });

  it('refuses form posts and text/plain (no cross-site simple requests) with 415', async () => {
    expect((await post('query=%7BarticleLists%7Bdata%7Bid%7D%7D%7D', 'application/x-www-form-urlencoded')).status).toBe(415);
    expect((await post(q('{ articleLists { data { id } } }'), 'text/plain')).status).toBe(415);
  });

  it('refuses a body over 16 KB with 413', async () => {
    expect((await post(q(amplifying + ' '.repeat(17_000)))).status).toBe(413);
  });

  it('turns introspection off in production', async () => {
    const before = process.env.NODE_ENV;
    try {
      Object.assign(process.env, { NODE_ENV: 'production' });
      const res = await post(q('{ __schema { types { name } } }'));
      expect(res.status).toBe(400);
      expect(res.text).toContain('introspection');
    } finally {
      Object.assign(process.env, { NODE_ENV: before });
    }
  });

  it('a query whose answer would pass 256 KB is refused from its shape, before any list is resolved', async () => {
    const res = await post(
      q(`{ a: articleLists(pagination: {pageSize: 50}) { ${everything} } b: articleLists(pagination: {pageSize: 50}) { ${everything} } }`),
    );
    expect(res.status).toBe(400);
    // The estimate from the fields asked (the refusal while resolving says nothing of fields).
    expect(res.text).toContain('The answer would be larger than 262144 bytes (up to');
    expect(res.text).toContain('for the fields asked');
    // The same fields of one list fit, and are answered.
    const one = await post(q(`{ a: articleLists(pagination: {pageSize: 50}) { ${everything} } }`));
    expect(one.status).toBe(200);
  });

  it('an answer that passes its cap while resolving stops there: the lists after it are not resolved', async () => {
    // The real index, with its collections' reads counted: a list that is resolved reads its collection.
    const real = embeddedIndex();
    const reads = new Map<string, number>();
    const entries = new Map(real.entries);
    const get = entries.get.bind(entries);
    entries.get = (collection) => (reads.set(collection, (reads.get(collection) ?? 0) + 1), get(collection));
    const index: ContentIndex = { ...real, entries };
    const document = parse(`{ a: articleLists { ${everything} } b: answerLists { ${everything} } c: hubLists { ${everything} } }`);
    const result = await executeCheckedQuery(index, document, {}, { allowPreview: false, maxBytes: 2000 });
    expect(result.errors?.[0]?.message).toContain('The answer would be larger than 2000 bytes');
    expect(reads.get('article')).toBeGreaterThan(0);
    expect(reads.get('answer')).toBeUndefined();
    expect(reads.get('hub')).toBeUndefined();
  });

  it('16 amplifying queries at once leave memory flat', async () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    const answers = await Promise.all(Array.from({ length: 16 }, () => post(q(amplifying))));
    expect(answers.every((a) => a.status === 400)).toBe(true);
    const grown = process.memoryUsage().rss - before;
    // Answered, the burst would be 16 × ~37 MB; refused, it costs the parse of 16 small documents.
    expect(grown).toBeLessThan(64 * 1024 * 1024);
  });
});

/**
 * `entryLevels` fragments on Entry, each spreading the next twice, then `attributeLevels` the same
 * way on EntryAttributes: GraphQL spreads each once, so the answer is one slug per entry.
 */
function doubling(entryLevels: number, attributeLevels: number): string {
  let frags = 'fragment X on EntryListResponse { data { ...E1 } } ';
  for (let i = 1; i < entryLevels; i++) frags += `fragment E${i} on Entry { ...E${i + 1} ...E${i + 1} } `;
  frags += `fragment E${entryLevels} on Entry { attributes { ...A1 } } `;
  for (let i = 1; i < attributeLevels; i++) frags += `fragment A${i} on EntryAttributes { ...A${i + 1} ...A${i + 1} } `;
  frags += `fragment A${attributeLevels} on EntryAttributes { slug }`;
  return `{ articleLists(pagination: {pageSize: 1}) { ...X } } ${frags}`;
}

/** The document with a count of how often each fragment's selection set is read. */
function countingReads(doc: DocumentNode): Map<string, number> {
  const reads = new Map<string, number>();
  for (const def of doc.definitions) {
    if (def.kind !== Kind.FRAGMENT_DEFINITION) continue;
    const set = def.selectionSet;
    const name = def.name.value;
    Object.defineProperty(def as FragmentDefinitionNode, 'selectionSet', { get: () => (reads.set(name, (reads.get(name) ?? 0) + 1), set) });
  }
  return reads;
}

describe('POST /api/content/graphql: fragments', () => {
  it('fragments that spread the next one twice, 12 deep on entries and 20 on attributes, are answered like the plain query', async () => {
    const plain = await post(q('{ articleLists(pagination: {pageSize: 1}) { data { attributes { slug } } } }'));
    expect(plain.status).toBe(200);
    const res = await post(q(doubling(12, 20)));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual(JSON.parse(plain.text));
  });

  it('18 fragments on the list, each spreading the next twice, are answered with the list total', async () => {
    let frags = '';
    for (let i = 0; i < 18; i++) frags += `fragment F${i} on EntryListResponse { ...F${i + 1} ...F${i + 1} } `;
    frags += 'fragment F18 on EntryListResponse { meta { pagination { total } } }';
    const res = await post(q(`{ articleLists { ...F0 } } ${frags}`));
    expect(res.status).toBe(200);
    const total = embeddedIndex()
      .entries.get('article')!
      .filter((e) => e.attributes.publishedAt !== null).length;
    expect(JSON.parse(res.text)).toEqual({ data: { articleLists: { meta: { pagination: { total } } } } });
  });

  it('the size check and the resolvers read each fragment once, however often it is spread', async () => {
    const doc = parse(doubling(8, 8));
    const reads = countingReads(doc);
    checkAnswerSize(embeddedIndex(), doc, {});
    expect(Math.max(...reads.values())).toBe(1);
    reads.clear();
    // Once for GraphQL's execution, once for the count of the answer's size as lists are resolved.
    const result = await executeCheckedQuery(embeddedIndex(), doc, {}, { allowPreview: false, maxBytes: 256 * 1024 });
    expect(result.errors).toBeUndefined();
    expect(Math.max(...reads.values())).toBeLessThanOrEqual(2);
  });

  it('aliases that multiply the selections past 1000 are refused with the reason', async () => {
    const slugs = Array.from({ length: 40 }, (_, i) => `s${i}: slug`).join(' ');
    const attributes = Array.from({ length: 30 }, (_, i) => `a${i}: attributes { ...A }`).join(' ');
    const res = await post(
      q(`{ articleLists(pagination: {pageSize: 1}) { data { ...E } } } fragment E on Entry { ${attributes} } fragment A on EntryAttributes { ${slugs} }`),
    );
    expect(res.status).toBe(400);
    expect(res.text).toContain('The query makes more than 1000 selections once its fragments are spread in');
  });
});

describe('POST /api/content/graphql: one field selected many times over', () => {
  // GraphQL's validation compares the fields under one response key in pairs: 560 of them took 55 ms
  const list = (selection: string, fragments = '') => q(`{ articleLists(pagination: {pageSize: 1}) { data { ${selection} } } } ${fragments}`);

  it('attributes { slug } 560 times in one selection is refused with the reason, before validation', async () => {
    const res = await post(list('attributes{slug} '.repeat(560)));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toBe('The query selects "attributes" 560 times in one place (fragments spread in); at most 10 are allowed');
  });

  it('the same field gathered from 100 fragments is refused too', async () => {
    const names = Array.from({ length: 100 }, (_, i) => `F${i}`);
    const res = await post(list(names.map((n) => `...${n}`).join(' '), names.map((n) => `fragment ${n} on Entry { attributes { slug } }`).join(' ')));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toContain('The query selects "attributes" 100 times in one place');
  });

  it('a fragment no operation uses is refused as GraphQL refuses it, whatever it selects', async () => {
    const res = await post(list('id', `fragment U on Entry { ${'attributes{slug} '.repeat(500)} }`));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toBe('Fragment "U" is never used.');
  });

  it('a field named ten times, with fragments, is answered', async () => {
    const res = await post(
      list(`${'attributes { slug } '.repeat(8)} ...A ...B`, 'fragment A on Entry { attributes { title } } fragment B on Entry { id attributes { slug } }'),
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).data.articleLists.data[0].attributes.slug).toEqual(expect.any(String));
  });
});

describe('POST /api/content/graphql: aliases in the answer size', () => {
  const copies = (n: number, field: string) => Array.from({ length: n }, (_, i) => `x${i}: ${field}`).join(' ');

  it('700 aliases of an entry body are refused from the shape, before anything is built', async () => {
    const res = await post(q(`{ articleLists(pagination: {pageSize: 25}) { data { attributes { ${copies(700, 'extras')} } } } }`));
    expect(res.status).toBe(400);
    expect(res.text).toContain('for the fields asked');
  });

  it('while resolving, every alias of a field counts toward the cap', async () => {
    const document = parse(`{ articleLists(pagination: {pageSize: 5}) { data { attributes { ${copies(20, 'extras')} } } } }`);
    const full = await executeCheckedQuery(embeddedIndex(), document, {}, { allowPreview: false, maxBytes: 1e9 });
    expect(full.errors).toBeUndefined();
    const half = Math.floor(Buffer.byteLength(JSON.stringify(full)) / 2);
    const capped = await executeCheckedQuery(embeddedIndex(), document, {}, { allowPreview: false, maxBytes: half });
    expect(capped.errors?.[0]?.message).toContain(`The answer would be larger than ${half} bytes`);
  });

  it.each([
    ['every field of 50 entries', `{ articleLists(pagination: {pageSize: 50}) { ${everything} } }`],
    [
      'aliased lists, data, ids, attributes and metas',
      `{ a: answerLists(pagination: {pageSize: 50}) { __typename d1: data { __typename ${copies(3, 'id')} attributes { slug url } } d2: data { attributes { ${copies(3, 'slug')} __typename } } m: meta { __typename pagination { __typename total } } meta { pagination { total } } } __typename b: hubLists { data { id } } }`,
    ],
    ['categories and tags', `{ categoryLists(pagination: {pageSize: 50}) { ${everything} } tagLists(pagination: {pageSize: 50}) { ${everything} } }`],
  ])('the bound from the shape is never below the answer: %s', async (_label, query) => {
    const document = parse(query);
    const op = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const walk = new SelectionWalk(new Map(), 1000);
    /** The literal `pagination: {pageSize: n}` of a list, or the default 25. */
    const pageSize = (field: SelectedField) => {
      const pagination = field.nodes[0]!.arguments?.find((a) => a.name.value === 'pagination')?.value;
      const size = pagination?.kind === Kind.OBJECT ? pagination.fields.find((f) => f.name.value === 'pageSize')?.value : undefined;
      return size?.kind === Kind.INT ? Number(size.value) : 25;
    };
    const bound = estimateAnswerBytes(embeddedIndex(), walk.fields([op.selectionSet]), walk, pageSize);
    const answer = await executeCheckedQuery(embeddedIndex(), document, {}, { allowPreview: false, maxBytes: 1e9 });
    expect(answer.errors).toBeUndefined();
    expect(bound).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(answer)));
  });
});

describe('POST /api/content/graphql: null items in list arguments', () => {
  const data = async (query: string, variables?: object) => {
    const res = await post(q(query, variables));
    expect(res.status, res.text).toBe(200);
    return JSON.parse(res.text) as { data: unknown };
  };

  it('a null sort item is ignored', async () => {
    const sorted = 'query($s: [String]) { articleLists(sort: $s, pagination: {pageSize: 5}) { data { id } } }';
    expect(await data(sorted, { s: [null, 'slug:desc'] })).toEqual(await data(sorted, { s: ['slug:desc'] }));
    expect(await data(sorted, { s: [null] })).toEqual(await data(sorted, { s: [] }));
  });

  it('a null `or` item of the filters is ignored', async () => {
    const filtered =
      'query($f: ArticleListFiltersInput) { articleLists(filters: $f, pagination: {pageSize: 50}) { data { id } meta { pagination { total } } } }';
    const brand = [{ brands: { contains: 'ipaydayloans' } }, { brands: { contains: 'us' } }];
    const withNull = await data(filtered, { f: { or: [null, ...brand] } });
    expect(withNull).toEqual(await data(filtered, { f: { or: brand } }));
    expect(await data('{ articleLists(filters: {or: [null]}, pagination: {pageSize: 50}) { data { id } meta { pagination { total } } } }')).toEqual(
      await data(filtered, {}),
    );
  });
});

describe('POST /api/content/graphql: variable defaults', () => {
  it('a page size from a variable default is held to the limit', async () => {
    const query = 'query($p: PaginationArg = {pageSize: 100}) { a: articleLists(pagination: $p) { data { id } meta { pagination { pageSize } } } }';
    const res = await post(q(query));
    expect(res.status).toBe(400);
    expect(res.text).toContain('pageSize 100 is over the limit of 50');
    // A value sent for the variable is what counts, not its default.
    const sent = await post(q(query, { p: { pageSize: 2 } }));
    expect(sent.status).toBe(200);
    expect(JSON.parse(sent.text).data.a.meta.pagination.pageSize).toBe(2);
  });

  it('a default inside the pagination object counts too', async () => {
    const res = await post(q('query($n: Int = 60) { articleLists(pagination: {pageSize: $n}) { data { id } } }'));
    expect(res.status).toBe(400);
    expect(res.text).toContain('pageSize 60 is over the limit of 50');
  });

  it('defaults count toward the entries of the whole query', async () => {
    const lists = ['a', 'b', 'c'].map((k) => `${k}: articleLists(pagination: $p) { data { id } }`).join(' ');
    const res = await post(q(`query($p: PaginationArg = {pageSize: 40}) { ${lists} }`));
    expect(res.status).toBe(400);
    expect(res.text).toContain('The query could return 120 entries');
  });
});

describe('POST /api/content/graphql: nesting past any page’s query', () => {
  const deepOr = (n: number, open: string, close: string) => `${open.repeat(n)}{}${close.repeat(n)}`;

  it.each([
    ['a filter nested in the query text', q(`{ articleLists(filters: ${deepOr(1400, '{or:[', ']}')}) { data { id } } }`)],
    [
      'a filter nested in a variable',
      `{"query":"query($f: ArticleListFiltersInput) { articleLists(filters: $f) { data { id } } }","variables":{"f":${deepOr(1780, '{"or":[', ']}')}}}`,
    ],
  ])('%s is refused with a reason, not an internal error', async (_name, body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/nests/);
    expect(res.text).not.toMatch(/call stack|TypeError|RangeError/);
  });

  it('a filter a few levels deep is still answered', async () => {
    const res = await post(q(`{ articleLists(filters: ${deepOr(5, '{or:[', ']}')}) { data { id } } }`));
    expect(res.status).toBe(200);
  });
});

describe('a field that fails unexpectedly', () => {
  it('is told as a failure of that field, without the error’s own words', async () => {
    // an index missing what the resolver reads: the kind of bug a stack trace would describe
    const broken = {} as ContentIndex;
    const doc = parse('{ articleLists { data { id } } }');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const result = await executeCheckedQuery(broken, doc, {}, { allowPreview: false });
      expect(result.errors?.map((e) => [e.message, e.path])).toEqual([['This field could not be answered', ['articleLists']]]);
      expect(JSON.stringify(result)).not.toMatch(/TypeError|Cannot read|undefined/);
      expect(errors).toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });
});
