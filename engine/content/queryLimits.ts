/**
 * Limits on a GraphQL query from the open internet (the local-mode browser endpoint). One
 * small document could otherwise ask for hundreds of aliased lists of 100 entries each and
 * turn 10 KB in into tens of MB out. A query is refused before it runs when it has more root
 * fields (aliases count) than MAX_ROOT_FIELDS, nests deeper than MAX_DEPTH, asks a page larger
 * than MAX_PAGE_SIZE or more than MAX_ENTRIES entries in all, selects one response key more than
 * MAX_FIELD_REPEATS times in one place (before GraphQL's validation: checkMergedFields), or — in production — looks at the
 * schema (introspection); and (checkAnswerSize) when its answer could be larger than
 * MAX_RESPONSE_BYTES, known from the fields it selects before anything is resolved
 * (engine/content/answerSize.ts). Each refusal says why. Fragments are spread in as GraphQL
 * executes them (engine/content/selections.ts), and a query that makes more than
 * MAX_SELECTIONS selections once they are is refused too: every check reads the query in work
 * bounded by that, however its fragments nest.
 */
import {
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type ConstValueNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { estimateAnswerBytes } from './answerSize';
import type { ContentIndex } from './embedded';
import { QueryRefused, SelectionWalk, type SelectedField } from './selections';

export { QueryRefused };

export const QUERY_LIMITS = {
  MAX_ROOT_FIELDS: 5,
  MAX_DEPTH: 6,
  MAX_PAGE_SIZE: 50,
  MAX_ENTRIES: 100,
  DEFAULT_PAGE_SIZE: 25,
  MAX_RESPONSE_BYTES: 256 * 1024,
  MAX_SELECTIONS: 1000,
  /** brackets ({, [, () open at once in the query's text: a page's queries open ~12 (six levels of fields, a filter) */
  MAX_NESTING: 32,
  /** fields under one response key in one place, fragments spread in: a page's queries name each once */
  MAX_FIELD_REPEATS: 10,
} as const;

interface Limits {
  introspection: boolean;
}

/** Parses and checks a query; returns the document to execute or throws QueryRefused with the reason. */
export function checkQuery(schema: GraphQLSchema, source: string, variables: Record<string, unknown>, opts: Limits): DocumentNode {
  let doc: DocumentNode;
  // graphql-js parses nested values by recursion: a few thousand brackets overflow its stack
  if (bracketDepth(source, QUERY_LIMITS.MAX_NESTING) > QUERY_LIMITS.MAX_NESTING)
    throw new QueryRefused(`The query nests more than ${QUERY_LIMITS.MAX_NESTING} brackets deep; at most ${QUERY_LIMITS.MAX_NESTING} are allowed`);
  try {
    doc = parse(source, { maxTokens: 5000 });
  } catch (err) {
    throw new QueryRefused(`The query could not be read: ${(err as Error).message}`);
  }
  checkMergedFields(doc);
  const rules = opts.introspection ? specifiedRules : [...specifiedRules, NoSchemaIntrospectionCustomRule];
  const errors = validate(schema, doc, rules);
  if (errors.length) throw new QueryRefused(errors.map((e) => e.message).join('; '));

  const operations = doc.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1) throw new QueryRefused('Send exactly one operation per request');
  const op = operations[0]!;
  if (op.operation !== 'query') throw new QueryRefused('Only queries are answered');

  const walk = new SelectionWalk(fragmentsOf(doc), QUERY_LIMITS.MAX_SELECTIONS);
  const roots = walk.fields([op.selectionSet]);
  if (roots.length > QUERY_LIMITS.MAX_ROOT_FIELDS) throw new QueryRefused(`At most ${QUERY_LIMITS.MAX_ROOT_FIELDS} lists per query (aliases count); this one asks for ${roots.length}`);
  const depth = depthOf(roots, walk);
  if (depth > QUERY_LIMITS.MAX_DEPTH) throw new QueryRefused(`The query nests ${depth} levels deep; at most ${QUERY_LIMITS.MAX_DEPTH} are allowed`);

  const pageSize = pageSizeReader(op, variables);
  let entries = 0;
  for (const field of roots) {
    const size = pageSize(field);
    if (size > QUERY_LIMITS.MAX_PAGE_SIZE) throw new QueryRefused(`pageSize ${size} is over the limit of ${QUERY_LIMITS.MAX_PAGE_SIZE}`);
    entries += size;
  }
  if (entries > QUERY_LIMITS.MAX_ENTRIES) throw new QueryRefused(`The query could return ${entries} entries; at most ${QUERY_LIMITS.MAX_ENTRIES} are allowed per request`);
  return doc;
}

/** Refuses, before it is resolved, a checked query whose answer could be larger than MAX_RESPONSE_BYTES. */
export function checkAnswerSize(index: ContentIndex, doc: DocumentNode, variables: Record<string, unknown>): void {
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (!op) return;
  const walk = new SelectionWalk(fragmentsOf(doc), QUERY_LIMITS.MAX_SELECTIONS);
  const bytes = estimateAnswerBytes(index, walk.fields([op.selectionSet]), walk, pageSizeReader(op, variables));
  if (bytes > QUERY_LIMITS.MAX_RESPONSE_BYTES)
    throw new QueryRefused(
      `The answer would be larger than ${QUERY_LIMITS.MAX_RESPONSE_BYTES} bytes (up to ${bytes} for the fields asked); ask for fewer entries or fields`,
    );
}

/**
 * How deep the query's brackets nest, outside strings and comments; the scan stops once past
 * `max`. Unbalanced text is for the parser to refuse.
 */
function bracketDepth(source: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '#') {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
    } else if (c === '"') {
      if (source.startsWith('"""', i)) {
        // a block string, to the next """ not escaped as \"""
        for (i += 3; i < source.length && !source.startsWith('"""', i); i++) if (source.startsWith('\\"""', i)) i += 3;
        i += 2;
      } else for (i++; i < source.length && source[i] !== '"' && source[i] !== '\n'; i++) if (source[i] === '\\') i++;
    } else if (c === '{' || c === '[' || c === '(') {
      if (++depth > deepest && (deepest = depth) > max) return deepest;
    } else if (c === '}' || c === ']' || c === ')') depth--;
  }
  return deepest;
}

/**
 * What GraphQL's validation would spend time in the square of: it checks that the fields under
 * one response key can be merged by comparing them in pairs (OverlappingFieldsCanBeMergedRule),
 * fragments spread in, and it checks every fragment definition so, used or not. `attributes { slug }`
 * 560 times in one selection (10 KB of query) cost 55 ms of CPU. Refused here first, in work
 * bounded by MAX_SELECTIONS: a fragment no operation spreads (GraphQL's own refusal, made before
 * its checks run), and a response key selected more than MAX_FIELD_REPEATS times in one place.
 */
function checkMergedFields(doc: DocumentNode): void {
  const fragments = fragmentsOf(doc);
  const used = new Set<string>();
  const todo: SelectionSetNode[] = [];
  for (const def of doc.definitions) if (def.kind === Kind.OPERATION_DEFINITION) todo.push(def.selectionSet);
  while (todo.length) {
    for (const sel of todo.pop()!.selections) {
      if (sel.kind !== Kind.FRAGMENT_SPREAD) {
        if (sel.selectionSet) todo.push(sel.selectionSet);
      } else if (!used.has(sel.name.value)) {
        used.add(sel.name.value);
        const fragment = fragments.get(sel.name.value);
        if (fragment) todo.push(fragment.selectionSet);
      }
    }
  }
  for (const name of fragments.keys()) if (!used.has(name)) throw new QueryRefused(`Fragment "${name}" is never used.`);

  const walk = new SelectionWalk(fragments, QUERY_LIMITS.MAX_SELECTIONS);
  const check = (fields: readonly SelectedField[]): void => {
    for (const field of fields) {
      if (field.nodes.length > QUERY_LIMITS.MAX_FIELD_REPEATS)
        throw new QueryRefused(
          `The query selects "${field.key}" ${field.nodes.length} times in one place (fragments spread in); at most ${QUERY_LIMITS.MAX_FIELD_REPEATS} are allowed`,
        );
      check(walk.childrenOf(field));
    }
  };
  for (const def of doc.definitions) if (def.kind === Kind.OPERATION_DEFINITION) check(walk.fields([def.selectionSet]));
}

function fragmentsOf(doc: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of doc.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  return fragments;
}

/** How many levels of fields the answer nests (a leaf is one). */
function depthOf(fields: readonly SelectedField[], walk: SelectionWalk): number {
  let deepest = 0;
  for (const field of fields) deepest = Math.max(deepest, 1 + depthOf(walk.childrenOf(field), walk));
  return deepest;
}

/**
 * An argument's value as execution will see it: a variable is the value sent for it or, when
 * none was sent, its default in the operation.
 */
function valueOf(node: ValueNode | undefined, variables: Record<string, unknown>, defaults: ReadonlyMap<string, ConstValueNode>): unknown {
  if (!node) return undefined;
  if (node.kind === Kind.VARIABLE) {
    const name = node.name.value;
    return Object.hasOwn(variables, name) ? variables[name] : valueOf(defaults.get(name), variables, defaults);
  }
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.NULL) return null;
  if (node.kind === Kind.OBJECT) return Object.fromEntries(node.fields.map((f) => [f.name.value, valueOf(f.value, variables, defaults)]));
  return undefined;
}

/** The page size a root list field asks for (its `pagination` argument, or the default). */
function pageSizeReader(op: OperationDefinitionNode, variables: Record<string, unknown>): (field: SelectedField) => number {
  const defaults = new Map<string, ConstValueNode>();
  for (const def of op.variableDefinitions ?? []) if (def.defaultValue) defaults.set(def.variable.name.value, def.defaultValue);
  return (field) => {
    // Nodes merged under one key have the same arguments (validation: OverlappingFieldsCanBeMerged).
    const pagination = field.nodes[0]?.arguments?.find((a) => a.name.value === 'pagination')?.value;
    const size = (valueOf(pagination, variables, defaults) as { pageSize?: unknown } | null | undefined)?.pageSize;
    return typeof size === 'number' && Number.isFinite(size) ? Math.max(1, size) : QUERY_LIMITS.DEFAULT_PAGE_SIZE;
  };
}
