/** JSON text ↔ positions: strict parsing with line:column errors, and JSON pointer → line:column. */
import { decodePointer, encodePointer } from '../browser/jsonPointer';
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

export interface Position {
  line: number;
  column: number;
}

export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: offset - last };
}

export { decodePointer, encodePointer };

export interface ParsedJson {
  value?: unknown;
  tree?: Node;
  /** `pointer`: where in the document, when the text parses but cannot be taken as it is (a repeated name). */
  error?: { message: string; position: Position; pointer?: string };
}

/**
 * The first name an object gives twice, depth first. JSON.parse keeps the last silently, so an
 * edit made where the name is written first would do nothing, without a word.
 */
function repeatedName(node: Node, path: (string | number)[] = []): { at: Node; first: Node; path: (string | number)[] } | undefined {
  if (node.type === 'object') {
    const seen = new Map<string, Node>();
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (!key) continue;
      const name = String(key.value);
      const first = seen.get(name);
      if (first) return { at: key, first, path: [...path, name] };
      seen.set(name, key);
      const inner = value && repeatedName(value, [...path, name]);
      if (inner) return inner;
    }
  } else if (node.type === 'array') {
    for (const [i, item] of (node.children ?? []).entries()) {
      const inner = repeatedName(item, [...path, i]);
      if (inner) return inner;
    }
  }
  return undefined;
}

const PARSE_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'this number is not written correctly',
  PropertyNameExpected: 'a property name in double quotes is expected here (is there a trailing comma before?)',
  ValueExpected: 'a value is expected here (is there a trailing comma before?)',
  ColonExpected: 'a colon ":" is expected here',
  CommaExpected: 'a comma is expected here',
  CloseBraceExpected: 'a closing "}" is expected here',
  CloseBracketExpected: 'a closing "]" is expected here',
  EndOfFileExpected: 'the file should end here',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'this string is not closed with a double quote',
  UnexpectedEndOfNumber: 'this number is not finished',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape after a backslash',
  InvalidCharacter: 'this character must be escaped inside a string',
};

/** Parse strict JSON (no comments, no trailing commas), keeping a tree for positions. */
export function parseJson(text: string): ParsedJson {
  // Windows editors (Notepad, "UTF-8 with BOM") put an invisible mark first, which JSON does not allow
  if (text.charCodeAt(0) === 0xfeff)
    return {
      error: {
        message:
          'not valid JSON: the file starts with an invisible byte-order mark (BOM); save it as "UTF-8" without BOM (VS Code: click "UTF-8 with BOM" in the status bar, then "Save with Encoding", "UTF-8")',
        position: { line: 1, column: 1 },
      },
    };
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length || !tree) {
    const first = errors[0];
    const code = first ? printParseErrorCode(first.error) : 'ValueExpected';
    return { error: { message: `not valid JSON: ${PARSE_MESSAGES[code] ?? code}`, position: positionAt(text, first?.offset ?? 0) } };
  }
  const repeated = repeatedName(tree);
  if (repeated) {
    const first = positionAt(text, repeated.first.offset);
    return {
      error: {
        message: `"${repeated.path[repeated.path.length - 1]}" is given twice in the same object (first at line ${first.line}, column ${first.column}): keep the one you mean and remove the other`,
        position: positionAt(text, repeated.at.offset),
        pointer: encodePointer(repeated.path.map(String)),
      },
    };
  }
  try {
    return { value: JSON.parse(text), tree };
  } catch (err) {
    return { error: { message: `not valid JSON: ${(err as Error).message}`, position: { line: 1, column: 1 } } };
  }
}

/** Position of the value at a pointer; for a missing one, the nearest existing parent. */
export function locate(text: string, tree: Node | undefined, pointer: string): Position | undefined {
  if (!tree) return undefined;
  const parts: (string | number)[] = decodePointer(pointer).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  for (let n = parts.length; n >= 0; n--) {
    const node = findNodeAtLocation(tree, parts.slice(0, n));
    if (node) {
      // Point at the property name when the node is an object property's value.
      const at = node.parent?.type === 'property' && n === parts.length ? node.parent.offset : node.offset;
      return positionAt(text, at);
    }
  }
  return undefined;
}
