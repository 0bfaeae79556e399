/**
 * Limits on a GraphQL query from the open internet (the local-mode browser endpoint). One
 * small document could otherwise ask for hundreds of aliased lists of 100 entries each and
 * turn 10 KB in into tens of MB out. A query is refused before it runs when it has more root
 * fields (aliases count) than MAX_ROOT_FIELDS, nests deeper than MAX_DEPTH, asks a page larger
 * than MAX_PAGE_SIZE or more than MAX_ENTRIES entries in all, or — in production — looks at the
 * schema (introspection); and (checkAnswerSize) when its answer could be larger than
 * MAX_RESPONSE_BYTES, known from the fields it selects before anything is resolved
 * (engine/content/answerSize.ts). Each refusal says why.
 */
import {
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { estimateAnswerBytes } from './answerSize';
import type { ContentIndex } from './embedded';

export const QUERY_LIMITS = { MAX_ROOT_FIELDS: 5, MAX_DEPTH: 6, MAX_PAGE_SIZE: 50, MAX_ENTRIES: 100, DEFAULT_PAGE_SIZE: 25, MAX_RESPONSE_BYTES: 256 * 1024 } as const;

export class QueryRefused extends Error {}

interface Limits {
  introspection: boolean;
}

/** Parses and checks a query; returns the document to execute or throws QueryRefused with the reason. */
export function checkQuery(schema: GraphQLSchema, source: string, variables: Record<string, unknown>, opts: Limits): DocumentNode {
  let doc: DocumentNode;
  try {
    doc = parse(source, { maxTokens: 5000 });
  } catch (err) {
    throw new QueryRefused(`The query could not be read: ${(err as Error).message}`);
  }
  const rules = opts.introspection ? specifiedRules : [...specifiedRules, NoSchemaIntrospectionCustomRule];
  const errors = validate(schema, doc, rules);
  if (errors.length) throw new QueryRefused(errors.map((e) => e.message).join('; '));

  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of doc.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const operations = doc.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1) throw new QueryRefused('Send exactly one operation per request');
  const op = operations[0]!;
  if (op.kind !== Kind.OPERATION_DEFINITION || op.operation !== 'query') throw new QueryRefused('Only queries are answered');

  const roots = fieldsOf(op.selectionSet, fragments);
  if (roots.length > QUERY_LIMITS.MAX_ROOT_FIELDS) throw new QueryRefused(`At most ${QUERY_LIMITS.MAX_ROOT_FIELDS} lists per query (aliases count); this one asks for ${roots.length}`);
  const depth = depthOf(op.selectionSet, fragments);
  if (depth > QUERY_LIMITS.MAX_DEPTH) throw new QueryRefused(`The query nests ${depth} levels deep; at most ${QUERY_LIMITS.MAX_DEPTH} are allowed`);

  let entries = 0;
  for (const field of roots) {
    const pagination = field.arguments?.find((a) => a.name.value === 'pagination')?.value;
    const pageSize = pageSizeOf(pagination, variables);
    if (pageSize > QUERY_LIMITS.MAX_PAGE_SIZE) throw new QueryRefused(`pageSize ${pageSize} is over the limit of ${QUERY_LIMITS.MAX_PAGE_SIZE}`);
    entries += pageSize;
  }
  if (entries > QUERY_LIMITS.MAX_ENTRIES) throw new QueryRefused(`The query could return ${entries} entries; at most ${QUERY_LIMITS.MAX_ENTRIES} are allowed per request`);
  return doc;
}

/** Refuses, before it is resolved, a checked query whose answer could be larger than MAX_RESPONSE_BYTES. */
export function checkAnswerSize(index: ContentIndex, doc: DocumentNode, variables: Record<string, unknown>): void {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of doc.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (!op || op.kind !== Kind.OPERATION_DEFINITION) return;
  const pageSize = (field: FieldLike) => pageSizeOf(field.arguments?.find((a) => a.name.value === 'pagination')?.value, variables);
  const bytes = estimateAnswerBytes(index, fieldsOf(op.selectionSet, fragments), fragments, pageSize);
  if (bytes > QUERY_LIMITS.MAX_RESPONSE_BYTES)
    throw new QueryRefused(
      `The answer would be larger than ${QUERY_LIMITS.MAX_RESPONSE_BYTES} bytes (up to ${bytes} for the fields asked); ask for fewer entries or fields`,
    );
}

type FieldLike = Extract<SelectionSetNode['selections'][number], { kind: Kind.FIELD }>;

/** The fields of a selection set with fragments spread in (cycles were ruled out by validation). */
function fieldsOf(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): FieldLike[] {
  const out: FieldLike[] = [];
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) out.push(sel);
    else if (sel.kind === Kind.INLINE_FRAGMENT) out.push(...fieldsOf(sel.selectionSet, fragments));
    else {
      const frag = fragments.get(sel.name.value);
      if (frag) out.push(...fieldsOf(frag.selectionSet, fragments));
    }
  }
  return out;
}

function depthOf(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): number {
  let deepest = 0;
  for (const field of fieldsOf(set, fragments)) deepest = Math.max(deepest, field.selectionSet ? depthOf(field.selectionSet, fragments) : 0);
  return deepest + 1;
}

function valueOf(node: ValueNode | undefined, variables: Record<string, unknown>): unknown {
  if (!node) return undefined;
  if (node.kind === Kind.VARIABLE) return variables[node.name.value];
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.OBJECT) return Object.fromEntries(node.fields.map((f) => [f.name.value, valueOf(f.value, variables)]));
  return undefined;
}

function pageSizeOf(pagination: ValueNode | undefined, variables: Record<string, unknown>): number {
  const value = valueOf(pagination, variables) as { pageSize?: unknown } | undefined;
  const size = value?.pageSize;
  return typeof size === 'number' && Number.isFinite(size) ? Math.max(1, size) : QUERY_LIMITS.DEFAULT_PAGE_SIZE;
}
