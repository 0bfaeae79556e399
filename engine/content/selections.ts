/**
 * What a GraphQL query selects, read the way GraphQL executes it (graphql-js `collectFields`):
 * the fields under one response key (an alias, or else the name) are one field of the answer,
 * their sub-selections merged; and while one selection is collected, a named fragment is
 * spread once however often it is named. A fragment that names the next one twice, twenty
 * deep, is twenty spreads here as in the answer — not 2^20, which is what spreading every
 * mention would cost. What the answer does repeat (a fragment spread under several aliases)
 * is read under each, so every selection read counts, and a walk refuses the query once it
 * has read `max` of them: the checks on a query (queryLimits.ts, answerSize.ts, and the
 * resolvers' size count in strapiSchema.ts) all read it through here, in work bounded by that.
 *
 * Directives (@skip, @include) and type conditions are not evaluated: every selection is
 * taken as selected, so what is read here is never less than what is executed.
 */
import { Kind, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/** A query refused before it runs; its message is the reason, for the client. */
export class QueryRefused extends Error {}

/** One field of the answer: its response key, the field's name, and every node that selects it. */
export interface SelectedField {
  key: string;
  name: string;
  nodes: readonly FieldNode[];
}

export type Fragments = ReadonlyMap<string, FragmentDefinitionNode> | Readonly<Record<string, FragmentDefinitionNode>>;

export class SelectionWalk {
  private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /** Selections read so far (fields, fragment spreads and inline fragments). */
  private read = 0;

  constructor(
    fragments: Fragments,
    private readonly max: number,
  ) {
    this.fragments = fragments instanceof Map ? fragments : new Map(Object.entries(fragments as Record<string, FragmentDefinitionNode>));
  }

  /** The fields that `sets` select together, by response key, in the order they first appear. */
  fields(sets: readonly (SelectionSetNode | undefined)[]): SelectedField[] {
    const byKey = new Map<string, { key: string; name: string; nodes: FieldNode[] }>();
    const spread = new Set<string>();
    const collect = (set: SelectionSetNode) => {
      for (const sel of set.selections) {
        if (++this.read > this.max)
          throw new QueryRefused(`The query makes more than ${this.max} selections once its fragments are spread in; ask for fewer fields or aliases`);
        if (sel.kind === Kind.FIELD) {
          const key = sel.alias?.value ?? sel.name.value;
          const field = byKey.get(key);
          if (field) field.nodes.push(sel);
          else byKey.set(key, { key, name: sel.name.value, nodes: [sel] });
        } else if (sel.kind === Kind.INLINE_FRAGMENT) collect(sel.selectionSet);
        else if (!spread.has(sel.name.value)) {
          spread.add(sel.name.value);
          const fragment = this.fragments.get(sel.name.value);
          if (fragment) collect(fragment.selectionSet);
        }
      }
    };
    for (const set of sets) if (set) collect(set);
    return [...byKey.values()];
  }

  /** The fields selected under `field` (none for a leaf). */
  childrenOf(field: SelectedField): SelectedField[] {
    return this.fields(field.nodes.map((n) => n.selectionSet));
  }
}
