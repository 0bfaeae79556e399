/**
 * Repeated keys in a JSON object. JSON.parse keeps the last of them without a word, so two readers
 * of one body (a proxy or a log that keeps the first, and us) could disagree on what it said; a
 * body with a key twice in one object is malformed and refused.
 */

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
      if (top.keys!.has(top.key)) return frames.map(pointerPart).join('');
      top.keys!.add(top.key);
      expectKey = false;
    } else if (c === '{') {
      frames.push({ keys: new Set(), key: '', index: 0 });
      expectKey = true;
    } else if (c === '[') frames.push({ keys: undefined, key: '', index: 0 });
    else if (c === '}' || c === ']') {
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
