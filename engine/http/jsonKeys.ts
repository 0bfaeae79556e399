/**
 * Repeated keys in a JSON object, and nesting no document of ours has. JSON.parse keeps the last of
 * repeated keys without a word, so two readers of one body (a proxy or a log that keeps the first,
 * and us) could disagree on what it said; a body with a key twice in one object is malformed and
 * refused. JSON.parse accepts any nesting, but JSON.stringify, AJV and every walk over a document
 * recurse, and a few kilobytes of brackets overflow their stack.
 */

/** Deeper than any body or document of ours (a brand is 7 levels); far below what overflows a stack. */
export const MAX_JSON_DEPTH = 64;

interface Frame {
  /** the keys seen so far (an object), or undefined (an array) */
  keys: Set<string> | undefined;
  key: string;
  index: number;
}

const pointerPart = (f: Frame) => `/${f.keys ? f.key.replace(/~/g, '~0').replace(/\//g, '~1') : String(f.index)}`;

/**
 * The JSON pointer of the first key that appears a second time in its object, or undefined when
 * none does. `text` must be JSON that JSON.parse accepted. One pass, no recursion (JSON.parse
 * accepts nesting deeper than a call stack).
 */
export function repeatedKey(text: string): string | undefined {
  const found = jsonShapeProblem(text);
  return found?.problem === 'repeated' ? found.at : undefined;
}

/**
 * What is wrong with the shape of JSON that JSON.parse accepted: the pointer of the first repeated
 * key, or of the first value nested deeper than `maxDepth` objects and arrays; undefined when
 * neither. One pass, no recursion.
 */
export function jsonShapeProblem(text: string, maxDepth = MAX_JSON_DEPTH): { problem: 'repeated' | 'deep'; at: string } | undefined {
  const frames: Frame[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (!expectKey) continue;
      const top = frames.at(-1)!;
      // decoded, so "a" and "\u0061" are the same key
      top.key = JSON.parse(text.slice(start, i + 1)) as string;
      if (top.keys!.has(top.key)) return { problem: 'repeated', at: frames.map(pointerPart).join('') };
      top.keys!.add(top.key);
      expectKey = false;
    } else if (c === '{' || c === '[') {
      if (frames.length === maxDepth) return { problem: 'deep', at: frames.map(pointerPart).join('') };
      frames.push({ keys: c === '{' ? new Set() : undefined, key: '', index: 0 });
      expectKey = c === '{';
    } else if (c === '}' || c === ']') {
      frames.pop();
      expectKey = false;
    } else if (c === ',') {
      const top = frames.at(-1)!;
      if (top.keys) expectKey = true;
      else top.index++;
    }
  }
  return undefined;
}
