/**
 * Text no store holds: JSON.parse accepts `"\u0000"` and a lone surrogate (`"\ud800"`), but
 * PostgreSQL refuses a NUL in text (the request's insert, or a whole batch of the traffic writer,
 * then fails) and pg stores a lone surrogate as U+FFFD, so two values that differ here are one
 * there (and one rollup row updated twice refuses the batch). Neither is in any text a person or
 * a browser of ours sends: a body with one, in a value or a key, is malformed.
 */

// a high surrogate not followed by a low one, or a low one not preceded by a high one
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const pointerPart = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

const problemOf = (text: string): string | undefined =>
  text.includes('\u0000')
    ? 'contains a NUL character (\\u0000), which is not text'
    : LONE_SURROGATE.test(text)
      ? 'contains half of a surrogate pair alone (\\ud800–\\udfff), which is not text'
      : undefined;

/**
 * The first string (value or key) of a parsed JSON document with a NUL or a lone surrogate, as
 * "/pointer: what is wrong"; undefined when there is none. Walks without recursion.
 */
export function untextualString(value: unknown): string | undefined {
  const todo: [unknown, string][] = [[value, '']];
  while (todo.length) {
    const [v, at] = todo.pop()!;
    if (typeof v === 'string') {
      const problem = problemOf(v);
      if (problem) return `${at || '/'}: ${problem}`;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) todo.push([v[i], `${at}/${i}`]);
    } else if (v && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        const problem = problemOf(key);
        if (problem) return `${at}/${pointerPart(key)} (its name): ${problem}`;
        todo.push([item, `${at}/${pointerPart(key)}`]);
      }
    }
  }
  return undefined;
}
